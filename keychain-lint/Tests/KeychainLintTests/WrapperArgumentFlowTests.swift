import Testing

@testable import KeychainLint

/// A wrapper's accessibility argument (SwiftKeychainWrapper's `withAccessibility:`, KeychainAccess's
/// `accessibility(_:)`, keychain-swift's `withAccess:`, Valet's `accessibility:`) and its flags argument are followed
/// to every value they can hold, as an item's class is: a conditional, a local variable, a helper of the file or of
/// another file of the module.
@Suite struct WrapperArgumentFlowTests {
    func findingsOf(_ rule: String, in text: String, path: String = "Fixture.swift", with others: [SourceFile] = [])
        -> [Finding]
    {
        findings(in: text, path: path, with: others).filter { $0.rule.id == rule }
    }

    @Test func anAlwaysOptionOnOneBranchOrFromAHelperIsReportedAtTheArgument() throws {
        let source = """
            import SwiftKeychainWrapper
            import KeychainAccess
            import KeychainSwift
            struct TokenStore {
                var debug = false
                func accessibility() -> KeychainItemAccessibility { debug ? .always : .afterFirstUnlock }
                func save(_ token: String, legacy: Bool) {
                    KeychainWrapper.standard.set(token, forKey: "a", withAccessibility: debug ? .always : .afterFirstUnlock)
                    var level = KeychainItemAccessibility.afterFirstUnlockThisDeviceOnly
                    if legacy { level = .alwaysThisDeviceOnly }
                    KeychainWrapper.standard.set(token, forKey: "b", withAccessibility: level)
                    KeychainWrapper.standard.set(token, forKey: "c", withAccessibility: accessibility())
                    let keychain = Keychain(service: "svc").accessibility(legacy ? .always : .whenUnlocked)
                    KeychainSwift().set(token, forKey: "d", withAccess: legacy ? .accessibleAlways : .accessibleWhenUnlocked)
                    keychain["e"] = token
                }
            }
            """
        let found = findingsOf("KL101", in: source)
        #expect(
            found.map { "\($0.position.line):\($0.position.column)" } == ["8:77", "11:77", "12:77", "13:63", "14:61"])
        try #require(found.count == 5)
        #expect(found[0].message.contains("Always accessibility class (.always) here"))
        #expect(found[0].message.contains("the value written holds it on one branch (line 8)"))
        #expect(found[1].message.contains("`level` holds it on one branch (line 10)"))
        #expect(found[1].message.hasSuffix("use .afterFirstUnlockThisDeviceOnly"))
        #expect(found[2].message.contains("line 6 in `accessibility`"))
        #expect(
            found[4].message.contains("(.accessibleAlways)")
                && found[4].message.hasSuffix("use .accessibleAfterFirstUnlock"))
        // The option is not written where the finding is: nothing for `--fix` to rewrite.
        #expect(found.allSatisfy { $0.edit == nil })
    }

    @Test func aHelperInAnotherFileAndAClassConstantAreFollowed() {
        let config = """
            import Valet
            enum StorageConfig {
                static var isDebug = false
                static var accessibility: Accessibility { isDebug ? .always : .afterFirstUnlock }
                static var widgetClass: CFString {
                    isDebug ? kSecAttrAccessibleAlwaysThisDeviceOnly : kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                }
            }
            """
        let store = """
            import Valet
            func makeValet() -> Valet {
                Valet.valet(with: Identifier(nonEmpty: "Tokens")!, accessibility: StorageConfig.accessibility)
            }
            func setUp(_ keychain: LegacyKeychain) {
                keychain.setAccessibility(StorageConfig.widgetClass)
            }
            """
        let others = [SourceFile(path: "App/StorageConfig.swift", text: config)]
        let found = findingsOf("KL101", in: store, path: "App/Store.swift", with: others)
        #expect(found.map { "\($0.position.line):\($0.position.column)" } == ["3:71", "6:31"])
        #expect(found.first?.message.contains("StorageConfig.swift line 4 in `accessibility`") == true)
        #expect(found.last?.message.contains("kSecAttrAccessibleAlwaysThisDeviceOnly can be written") == true)
    }

    @Test func overwrittenDeadAndUnrelatedOptionsStaySilent() {
        let source = """
            import SwiftKeychainWrapper
            func save(_ token: String, debug: Bool) {
                var level = KeychainItemAccessibility.always
                level = .afterFirstUnlock
                KeychainWrapper.standard.set(token, forKey: "a", withAccessibility: level)
                var fallback = KeychainItemAccessibility.whenUnlocked
                if false { fallback = .always }
                KeychainWrapper.standard.set(token, forKey: "b", withAccessibility: fallback)
                KeychainWrapper.standard.set(token, forKey: "c", withAccessibility: false ? .always : .whenUnlocked)
                let mode = debug ? UITextField.ViewMode.always : .never
                let field = UITextField(clearButtonMode: mode, style: debug ? .always : .never)
                if false {
                    KeychainWrapper.standard.set(token, forKey: "d", withAccessibility: .always)
                }
            }
            """
        #expect(findingsOf("KL101", in: source).isEmpty)
        let live = source.replacingOccurrences(of: "if false", with: "if debug")
        #expect(findingsOf("KL101", in: live).map { "\($0.position.line):\($0.position.column)" } == ["8:73", "13:77"])
    }

    @Test func biometryAnyThroughAWrapperPolicyVariableIsReported() {
        let source = """
            import KeychainAccess
            func configure(strict: Bool) -> [Keychain] {
                let policy: AuthenticationPolicy = strict ? .biometryCurrentSet : .biometryAny
                var kept = AuthenticationPolicy.biometryCurrentSet
                if false { kept = .biometryAny }
                return [
                    Keychain(service: "a").accessibility(.whenPasscodeSetThisDeviceOnly, authenticationPolicy: policy),
                    Keychain(service: "b").accessibility(.whenPasscodeSetThisDeviceOnly, authenticationPolicy: kept),
                ]
            }
            """
        #expect(locations(of: "KL303", in: source) == ["7:100"])
        let message = findingsOf("KL303", in: source).first?.message ?? ""
        #expect(message.contains("`policy` holds it on one branch (line 3)"))
    }
}
