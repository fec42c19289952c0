import Testing

@testable import KeychainLint

@Suite struct SuppressionTests {
    @Test func inlineSuppressionsNeedARuleAndAReason() {
        let source = """
            func save() {
                // keychain-lint:ignore KL101 -- legacy widget item, migrated in 4.2
                SecItemAdd([kSecAttrAccessible: kSecAttrAccessibleAlways] as CFDictionary, nil)
                store([kSecAttrAccessible: kSecAttrAccessibleAlways]) // keychain-lint:ignore KL101 watch app
                // keychain-lint:ignore KL101
                SecItemAdd([kSecAttrAccessible: kSecAttrAccessibleAlways] as CFDictionary, nil)
                let note = "keychain-lint:ignore KL101 -- not a comment"
                SecItemAdd([kSecAttrAccessible: kSecAttrAccessibleAlways] as CFDictionary, nil)
            }
            """
        // The discarded statuses (KL208) are another matter; this test is about KL101's suppressions.
        var configuration = Configuration()
        configuration.disabledRules = ["KL208"]
        let report = Linter(configuration: configuration).lint(files: [SourceFile(path: "A.swift", text: source)])
        #expect(report.findings.map { "\($0.rule.id)@\($0.position.line)" } == ["KL001@5", "KL101@6", "KL101@8"])
        #expect(report.suppressed == 2)
    }

    @Test func fileWideSuppression() {
        let source = """
            // keychain-lint:ignore-file KL101 -- fixtures for the migration tests
            func save() -> OSStatus {
                SecItemAdd([kSecAttrAccessible: kSecAttrAccessibleAlways] as CFDictionary, nil)
            }
            """
        #expect(findings(in: source).isEmpty)
    }
}
