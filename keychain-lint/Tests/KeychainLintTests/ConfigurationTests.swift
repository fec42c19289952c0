import Foundation
import Testing

@testable import KeychainLint

@Suite struct ConfigurationTests {
    @Test func parsesEveryKey() throws {
        let json = """
            {"exclude": ["Tests/**"], "rules": {"KL103": "off", "biometryAny": "medium"},
             "failOn": "high", "fix": ["accessibleAlways"]}
            """
        let configuration = try Configuration.parse(Data(json.utf8))
        #expect(configuration.exclude.contains("Tests/**"))
        #expect(configuration.disabledRules == ["KL103"])
        #expect(configuration.severities == ["KL303": .medium])
        #expect(configuration.failOn == .high)
        #expect(configuration.fixableRules == ["KL101"])
    }

    @Test func rejectsMistakes() {
        for json in [
            #"{"rule": {}}"#, #"{"rules": {"KL999": "off"}}"#, #"{"rules": {"KL101": "loud"}}"#, "[]",
            #"{"failOn": "sometimes"}"#,
        ] {
            #expect(throws: ConfigurationError.self) { try Configuration.parse(Data(json.utf8)) }
        }
    }

    @Test func appliesDisabledRulesAndSeverities() {
        var configuration = Configuration()
        configuration.disabledRules = ["KL101", "KL208"]
        configuration.severities = ["KL201": .low]
        let source = """
            func save(_ q: [String: Any]) {
                SecItemDelete(q as CFDictionary)
                SecItemAdd([kSecAttrAccessible: kSecAttrAccessibleAlways] as CFDictionary, nil)
            }
            """
        let found = Linter(configuration: configuration).lint(files: [SourceFile(path: "A.swift", text: source)])
            .findings
        #expect(found.map(\.rule.id) == ["KL201"])
        #expect(found.first?.severity == .low)
    }

    @Test func globsMatchPaths() {
        #expect(GlobPattern("Tests/**").matches("Tests/A/B.swift"))
        #expect(GlobPattern("**/Pods/**").matches("App/Pods/X/Y.m"))
        #expect(GlobPattern("**/Pods/**").matches("Pods/X/Y.m"))
        #expect(GlobPattern("*.h").matches("Sources/Foo.h"))
        #expect(!GlobPattern("Sources/*.swift").matches("Sources/A/B.swift"))
        #expect(GlobPattern("Vendor/").matches("Vendor/Lib/A.swift"))
    }
}
