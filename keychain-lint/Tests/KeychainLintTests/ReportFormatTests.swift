import Foundation
import Testing

@testable import KeychainLint

@Suite struct ReportFormatTests {
    static let source = """
        func save(_ data: Data) -> OSStatus {
            SecItemAdd([kSecAttrAccessible: kSecAttrAccessibleAlways, kSecValueData: data] as CFDictionary, nil)
        }
        """

    static func report() -> LintReport {
        Linter().lint(files: [SourceFile(path: "Sources/App/Store.swift", text: source)])
    }

    static func object(_ text: String) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(parsed as? [String: Any])
    }

    @Test func sarifFollowsTheVersion210Structure() throws {
        let sarif = try Self.object(ReportFormat.sarif.render(Self.report()))
        #expect(sarif["version"] as? String == "2.1.0")
        #expect((sarif["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let runs = try #require(sarif["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "keychain-lint")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == RuleCatalog.all.count)
        for rule in rules {
            #expect(rule["id"] is String)
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] is String)
            #expect((rule["help"] as? [String: Any])?["text"] is String)
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(["error", "warning", "note", "none"].contains(level ?? ""))
            let properties = try #require(rule["properties"] as? [String: Any])
            #expect(Double(properties["security-severity"] as? String ?? "") != nil)
            #expect((properties["tags"] as? [String])?.contains("security") == true)
        }
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        let result = try #require(results.first)
        #expect(result["ruleId"] as? String == "KL101")
        let ruleIndex = try #require(result["ruleIndex"] as? Int)
        #expect(rules[ruleIndex]["id"] as? String == "KL101")
        #expect(result["level"] as? String == "error")
        #expect((result["message"] as? [String: Any])?["text"] is String)
        let location = try #require((result["locations"] as? [[String: Any]])?.first)
        let physical = try #require(location["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "Sources/App/Store.swift")
        let region = try #require(physical["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 2)
        #expect(region["startColumn"] as? Int == 37)
        #expect(result["partialFingerprints"] is [String: String])
    }

    @Test func sarifURIsAreEncoded() {
        #expect(SARIFReport.uri(for: "./My App/Store.swift") == "My%20App/Store.swift")
        #expect(SARIFReport.uri(for: "/tmp/a.swift") == "file:///tmp/a.swift")
    }

    @Test func jsonMatchesTheDocumentedSchema() throws {
        let json = try Self.object(ReportFormat.json.render(Self.report()))
        #expect(json["schemaVersion"] as? Int == 1)
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 1)
        #expect(summary["findings"] as? Int == 1)
        #expect((summary["bySeverity"] as? [String: Int])?["high"] == 1)
        let finding = try #require((json["findings"] as? [[String: Any]])?.first)
        #expect(finding["ruleId"] as? String == "KL101")
        #expect(finding["ruleName"] as? String == "accessibleAlways")
        #expect(finding["severity"] as? String == "high")
        #expect(finding["path"] as? String == "Sources/App/Store.swift")
        #expect(finding["line"] as? Int == 2)
        #expect(finding["column"] as? Int == 37)
        #expect(finding["cwe"] as? String == "CWE-311")
        #expect(finding["fixAvailable"] as? Bool == true)
        #expect(finding["message"] is String && finding["fix"] is String && finding["masvs"] is String)
    }

    @Test func textShowsLocationRuleAndFix() {
        let text = ReportFormat.text.render(Self.report())
        #expect(text.hasPrefix("Sources/App/Store.swift:2:37: high: kSecAttrAccessibleAlways"))
        #expect(text.contains("[KL101 accessibleAlways]\n    fix: Use kSecAttrAccessibleAfterFirstUnlock"))
        #expect(text.hasSuffix("1 finding (1 high) in 1 file\n"))
    }

    /// `--fix KL101` is named only beside a finding that has an edit: a class traced through a variable is left to
    /// be changed by hand, in every format.
    @Test func theFixLineNamesFixOnlyForFindingsWithAnEdit() throws {
        let source = """
            func save(_ data: Data, debug: Bool) -> [OSStatus] {
                let level = debug ? kSecAttrAccessibleAlways : kSecAttrAccessibleWhenUnlocked
                return [
                    SecItemAdd([kSecAttrAccessible: level, kSecValueData: data] as CFDictionary, nil),
                    SecItemAdd([kSecAttrAccessible: kSecAttrAccessibleAlways, kSecValueData: data] as CFDictionary, nil),
                ]
            }
            """
        let report = Linter().lint(files: [SourceFile(path: "Store.swift", text: source)])
        try #require(report.findings.map { $0.position.line } == [4, 5])
        let text = ReportFormat.text.render(report)
        let fixLines = text.split(separator: "\n").filter { $0.hasPrefix("    fix: ") }
        #expect(fixLines.count == 2)
        #expect(fixLines.first?.contains("--fix") == false)
        #expect(fixLines.last?.hasSuffix("`--fix KL101` rewrites this constant.") == true)
        let json = try Self.object(ReportFormat.json.render(report))
        let entries = try #require(json["findings"] as? [[String: Any]])
        #expect(entries.map { $0["fixAvailable"] as? Bool } == [false, true])
        #expect((entries[0]["fix"] as? String)?.contains("--fix") == false)
        #expect((entries[1]["fix"] as? String)?.contains("`--fix KL101` rewrites this constant.") == true)
        let sarif = try Self.object(ReportFormat.sarif.render(report))
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results[0]["fixes"] == nil)
        let fix = try #require((results[1]["fixes"] as? [[String: Any]])?.first)
        let change = try #require((fix["artifactChanges"] as? [[String: Any]])?.first)
        let replacement = try #require((change["replacements"] as? [[String: Any]])?.first)
        let deleted = try #require(replacement["deletedRegion"] as? [String: Any])
        let start = try #require(deleted["byteOffset"] as? Int)
        let length = try #require(deleted["byteLength"] as? Int)
        let bytes = Array(source.utf8)
        #expect(String(decoding: bytes[start..<start + length], as: UTF8.self) == "kSecAttrAccessibleAlways")
        #expect(
            (replacement["insertedContent"] as? [String: Any])?["text"] as? String
                == "kSecAttrAccessibleAfterFirstUnlock")
        // The rule's own help says which findings `--fix` rewrites.
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rule = try #require((driver["rules"] as? [[String: Any]])?.first { $0["id"] as? String == "KL101" })
        let help = (rule["help"] as? [String: Any])?["text"] as? String ?? ""
        #expect(help.contains("where it is written directly") && help.contains("by hand"))
    }

    @Test func everyRuleIsDocumented() {
        let ids = RuleCatalog.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in RuleCatalog.all {
            #expect(!rule.summary.isEmpty && !rule.explanation.isEmpty && !rule.fix.isEmpty && rule.cwe > 0)
            #expect(rule.masvs.hasPrefix("MASVS-"))
        }
    }
}
