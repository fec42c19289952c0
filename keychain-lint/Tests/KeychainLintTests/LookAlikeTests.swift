import Testing

@testable import KeychainLint

/// Code found in real projects that resembles a rule's target but is correct; each case once produced a finding.
@Suite struct LookAlikeTests {
    @Test func serviceOnlyItemsKeyedConsistentlyStaySilent() {
        let source = """
            func add(_ data: Data) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: "waitlist.token",
                    kSecValueData as String: data,
                ]
                SecItemAdd(query as CFDictionary, nil)
            }
            func read() {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: "waitlist.token",
                    kSecReturnData as String: true,
                ]
                var item: CFTypeRef?
                SecItemCopyMatching(query as CFDictionary, &item)
            }
            """
        #expect(locations(of: "KL206", in: source).isEmpty)
    }

    @Test func commonMethodNamesInOtherFilesAreNotDeletes() {
        let other = SourceFile(
            path: "Vault.swift",
            text: """
                final class Vault {
                    func unlock() { SecItemDelete([kSecClass: kSecClassGenericPassword] as CFDictionary) }
                }
                """)
        let source = """
            func set(_ data: Data) {
                lock.unlock()
                SecItemAdd([kSecClass: kSecClassGenericPassword, kSecValueData: data] as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL201", in: source, with: [other]).isEmpty)
    }

    @Test func developmentOnlyCodeNeedsNoPrivacyReason() {
        let source = """
            func configure() {
                #if targetEnvironment(simulator)
                _ = UITextInputMode.activeInputModes
                #endif
            }
            """
        let info = SourceFile(path: "App/Info.plist", text: AccessControlRuleTests.plist(keys: ""))
        #expect(locations(of: "KL504", in: source, with: [info]).isEmpty)
    }

    @Test func namesThatDescribeSecretsAreNotSecrets() {
        let source = """
            func remember(tags: [String], token: String) {
                let defaults = UserDefaults.standard
                defaults.set(tags, forKey: "reportedTokenTags")
                defaults.set(Date(), forKey: "tokenRefreshDate")
                defaults.set(token.isEmpty, forKey: "hasToken")
            }
            """
        #expect(locations(of: "KL401", in: source).isEmpty)
    }

    @Test func switchCasesAreNotBiometricUse() {
        let source = """
            enum Access {
                case userPresence, biometryAny
                var text: String {
                    switch self {
                    case .userPresence: return "presence"
                    case .biometryAny: return "any"
                    }
                }
            }
            """
        let info = SourceFile(path: "App/Info.plist", text: AccessControlRuleTests.plist(keys: ""))
        #expect(locations(of: "KL305", in: source, with: [info]).isEmpty)
        #expect(locations(of: "KL303", in: source).isEmpty)
    }

    @Test func theRelevanceFilterKeepsEveryRuleFixture() {
        // Each snippet triggers a rule; none may be skipped by the pre-parse filter.
        let snippets = [
            "SecItemAdd(q, nil)", "x.accessibility(.always)", "let apiKey = \"abc\"", "print(token)",
            "UserDefaults.standard", "@AppStorage(\"a\") var b = \"\"", "context.evaluatePolicy(p)",
            "import CommonCrypto", "ProcessInfo.processInfo.systemUptime", "let k = \"AKIAABCDEFGHIJKLMNOP\"",
        ]
        for snippet in snippets { #expect(RelevanceFilter.mayMatter(snippet), "\(snippet)") }
        #expect(!RelevanceFilter.mayMatter("struct Point { var x = 0; var y = 0 }"))
    }

    @Test func largeGeneratedTablesAreNotParsed() {
        let row = "    public static let formPasswordIcon = Icon(name: \"form_password\", unicode: \"\\u{F07F5}\")\n"
        let table = String(repeating: row, count: RelevanceFilter.largeGeneratedFileBytes / row.utf8.count + 1)
        #expect(!RelevanceFilter.mayMatter("// Generated using SwiftGen\n" + table))
        #expect(RelevanceFilter.mayMatter("// Icons\n" + table))
        #expect(RelevanceFilter.mayMatter("// Generated using Sourcery\nlet apiKey = \"k3y-123456\"\n"))
    }
}

@Suite struct SecretNameTests {
    @Test func wordsSplitCamelCaseAcronymsAndSeparators() {
        #expect(SecretNames.words("kAPISecret") == ["k", "api", "secret"])
        #expect(SecretNames.words("apiKey") == ["api", "key"])
        #expect(SecretNames.words("API_KEY") == ["api", "key"])
        #expect(SecretNames.words("refresh-token2") == ["refresh", "token2"])
        #expect(SecretNames.words("OAuthToken") == ["o", "auth", "token"])
    }

    @Test func verdicts() {
        #expect(SecretNames.isSecretName("apiKey"))
        #expect(SecretNames.isSecretName("clientSecret"))
        #expect(SecretNames.isSecretName("refresh_token"))
        #expect(!SecretNames.isSecretName("tokenKey"))
        #expect(!SecretNames.isSecretName("passwordField"))
        #expect(!SecretNames.isSecretName("deviceToken"))
        #expect(!SecretNames.isSecretName("hasPassword"))
        #expect(!SecretNames.isSecretName("username"))
    }
}
