import Foundation
import Testing

@testable import KeychainLint

/// Generated or hostile files nested thousands of levels deep: the run must finish, write its report and say which
/// file it skipped, instead of overflowing the stack (Objective-C) or parsing for hours (Swift).
@Suite struct NestingLimitTests {
    static let keychainItem = """
        NSDictionary *q = @{ (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                             (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways };
        SecItemAdd((__bridge CFDictionaryRef)q, NULL);
        """

    @Test func objectiveCParenthesesTooDeepAreSkippedAndReported() throws {
        let deep =
            "void f(void) { int x = " + String(repeating: "(", count: 5_000) + "1"
            + String(repeating: ")", count: 5_000) + "; }\n"
        let directory = try TemporaryDirectory()
        try directory.write("Deep.m", deep)
        try directory.write("Store.m", "- (void)save {\n" + Self.keychainItem + "\n}\n")
        let target = directory.path + "/report.sarif"
        let runner = CommandRunner(standardOutput: { _ in }, standardError: { _ in })
        let status = runner.run(arguments: ["--format", "sarif", "--output", target, directory.path])
        #expect(status == .findings)
        let sarif = try String(contentsOfFile: target, encoding: .utf8)
        #expect(sarif.contains("skipped: nesting too deep"))
        #expect(sarif.contains("Deep.m"))
        #expect(sarif.contains("KL101"))
    }

    /// A file the analyser could not read fails the run (status 65) when nothing else does: hiding code in a
    /// deeply nested file must not pass a CI gate as clean; --allow-skipped accepts it.
    @Test func aSkippedFileFailsTheRunUnlessAllowed() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Deep.m", "void f(void) " + String(repeating: "{", count: 2_000))
        try directory.write("Fine.m", "- (void)f { }\n")
        var errors = ""
        let runner = CommandRunner(standardOutput: { _ in }, standardError: { errors += $0 })
        #expect(runner.run(arguments: [directory.path]) == .filesNotAnalysed)
        #expect(CommandRunner.ExitStatus.filesNotAnalysed.rawValue == 65)
        #expect(errors.contains("1 file was not analysed"))
        #expect(runner.run(arguments: ["--allow-skipped", directory.path]) == .clean)
        #expect(runner.run(arguments: ["--fail-on", "never", directory.path]) == .filesNotAnalysed)
    }

    @Test func objectiveCBracesTooDeepAreSkipped() {
        let deep = "void f(void) " + String(repeating: "{", count: 2_000) + String(repeating: "}", count: 2_000)
        let report = Linter().lint(files: [SourceFile(path: "Braces.m", text: deep)])
        #expect(TextReport.render(report).contains("Braces.m: note: skipped: nesting too deep"))
    }

    @Test func objectiveCMessageSendsTooDeepAreSkipped() {
        let deep =
            "void f(void) { id x = " + String(repeating: "@[", count: 3_000) + "@1"
            + String(repeating: "]", count: 3_000) + "; }\n"
        let report = Linter().lint(files: [SourceFile(path: "Arrays.m", text: deep)])
        #expect(TextReport.render(report).contains("Arrays.m: note: skipped: nesting too deep"))
    }

    /// Real code nests far less than the bound and is still analysed in full.
    @Test func objectiveCNestedWithinTheBoundIsAnalysed() {
        let nested =
            "- (void)save {\n int x = " + String(repeating: "(", count: 100) + "1"
            + String(repeating: ")", count: 100) + ";\n" + String(repeating: "if (x) {\n", count: 60)
            + Self.keychainItem + "\n" + String(repeating: "}\n", count: 60) + "}\n"
        let report = Linter().lint(files: [SourceFile(path: "Store.m", text: nested)])
        #expect(report.findings.contains { $0.rule.id == "KL101" })
        #expect(!TextReport.render(report).contains("skipped"))
    }
}
