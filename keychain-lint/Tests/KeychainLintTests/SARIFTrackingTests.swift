import Foundation
import Testing

@testable import KeychainLint

/// SARIF that code scanning can follow across commits and place on the right character.
@Suite struct SARIFTrackingTests {
    static let store = """
        func save(_ data: Data) -> OSStatus {
            SecItemAdd([kSecAttrAccessible: kSecAttrAccessibleAlways, kSecValueData: data] as CFDictionary, nil)
        }
        """

    static func results(_ text: String, path: String = "App/Store.swift") throws -> [[String: Any]] {
        let report = Linter().lint(files: [SourceFile(path: path, text: text)])
        let sarif = try ReportFormatTests.object(ReportFormat.sarif.render(report))
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        return try #require(run["results"] as? [[String: Any]])
    }

    static func fingerprint(_ result: [String: Any]) -> String? {
        (result["partialFingerprints"] as? [String: String])?.values.first
    }

    @Test func fingerprintsSurviveCodeMovingDown() throws {
        let before = try #require(try Self.results(Self.store).first)
        let moved = try #require(try Self.results("import Security\n\n// Saves things.\n" + Self.store).first)
        let beforePrint = try #require(Self.fingerprint(before))
        #expect(beforePrint == Self.fingerprint(moved))
        #expect(!beforePrint.contains(":2"))
        // Two identical lines in one file get different fingerprints.
        let twice = Self.store + "\n" + Self.store.replacingOccurrences(of: "func save", with: "func keep")
        let prints = try Self.results(twice).compactMap(Self.fingerprint)
        #expect(prints.count == 2 && Set(prints).count == 2)
    }

    @Test func columnsUseTheDeclaredColumnKind() throws {
        let text = """
            func save(_ data: Data) {
                let note = "日本"; SecItemAdd([kSecAttrAccessible: kSecAttrAccessibleAlways] as CFDictionary, nil)
            }
            """
        let report = Linter().lint(files: [SourceFile(path: "A.swift", text: text)])
        let finding = try #require(report.findings.first { $0.rule.id == "KL101" })
        let sarif = try ReportFormatTests.object(ReportFormat.sarif.render(report))
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        #expect(run["columnKind"] as? String == "utf16CodeUnits")
        let result = try #require((run["results"] as? [[String: Any]])?.first { $0["ruleId"] as? String == "KL101" })
        let location = try #require((result["locations"] as? [[String: Any]])?.first)
        let region = try #require((location["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])
        // 日本 is six UTF-8 bytes and two UTF-16 code units.
        #expect(finding.position.column - (region["startColumn"] as? Int ?? 0) == 4)
        let line = text.split(separator: "\n")[1]
        let utf16Prefix = Array(line.utf16).prefix((region["startColumn"] as? Int ?? 1) - 1)
        #expect(String(decoding: utf16Prefix, as: UTF16.self).hasSuffix("SecItemAdd([kSecAttrAccessible: "))
    }

    @Test func everyRuleHasAHelpURI() throws {
        let empty = LintReport(findings: [], filesScanned: 0, suppressed: 0)
        let sarif = try ReportFormatTests.object(ReportFormat.sarif.render(empty))
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let driver = (run["tool"] as? [String: Any])?["driver"] as? [String: Any]
        let rules = try #require(driver?["rules"] as? [[String: Any]])
        for rule in rules {
            let uri = try #require(rule["helpUri"] as? String)
            #expect(uri.hasPrefix("https://"))
        }
    }
}
