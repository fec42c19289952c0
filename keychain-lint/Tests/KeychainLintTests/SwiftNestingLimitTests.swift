import Foundation
import Testing

@testable import KeychainLint

/// SwiftParser's time doubles with each array literal or closure nested in an expression: a file nested past the
/// bound is skipped and reported instead of hanging the run.
@Suite struct SwiftNestingLimitTests {
    @Test func swiftArrayLiteralTooDeepIsSkippedQuickly() {
        let depth = 200
        let deep =
            "func f() { let token = " + String(repeating: "[", count: depth) + "1"
            + String(repeating: "]", count: depth) + " }\n"
        let start = ContinuousClock.now
        let report = Linter().lint(files: [SourceFile(path: "Deep.swift", text: deep)])
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(TextReport.render(report).contains("Deep.swift: note: skipped: nesting too deep"))
        #expect(SARIFReport.render(report).contains("skipped: nesting too deep"))
    }

    @Test func swiftNestingIgnoresStringsAndComments() {
        let brackets = String(repeating: "[", count: 300)
        let source = """
            // \(brackets)
            /* \(brackets) */
            let note = "\(brackets)"
            let multi = \"\"\"
                \(brackets)
                \"\"\"
            let password = "Zx9Yw8Vu7Ts6Rq5P"
            """
        let report = Linter().lint(files: [SourceFile(path: "Notes.swift", text: source)])
        #expect(report.findings.contains { $0.rule.id == "KL402" })
        #expect(!TextReport.render(report).contains("skipped"))
    }

    @Test func swiftNestedWithinTheBoundIsAnalysed() {
        var source = "import Security\nfunc save(_ data: Data) {\n"
        source += String(repeating: "if true {\n", count: 30)
        source += """
            let q: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccessible as String: kSecAttrAccessibleAlways, kSecValueData as String: data]
            SecItemAdd(q as CFDictionary, nil)
            let grid = [[[[[[1]]]]]]
            """
        source += String(repeating: "}\n", count: 30) + "}\n"
        let report = Linter().lint(files: [SourceFile(path: "Store.swift", text: source)])
        #expect(report.findings.contains { $0.rule.id == "KL101" })
        #expect(!TextReport.render(report).contains("skipped"))
    }

    /// A SwiftUI body twelve closures deep, statement bodies around it: well within the bound.
    @Test func swiftUIViewNestedTwelveClosuresIsAnalysed() {
        var source = "struct V: View {\n    var body: some View {\n"
        source += String(repeating: "VStack {\n if flag {\n", count: 6)
        source += "Text(\"x\").onAppear { UserDefaults.standard.set(password, forKey: \"password\") }\n"
        source += String(repeating: "}\n}\n", count: 6) + "}\n}\n"
        #expect(SwiftNestingScan.depth(of: source) == 13)
        let report = Linter().lint(files: [SourceFile(path: "V.swift", text: source)])
        #expect(report.skippedFiles.isEmpty)
        #expect(report.findings.contains { $0.rule.id == "KL401" })
    }
}
