import Testing

@testable import KeychainLint

/// KL501's synchronizable flag, KL505's protection class and KL605's permanence are followed to every value that
/// reaches the item, as the other item rules follow theirs; arms a literal condition never takes are left out. Each
/// is an exemption or a condition that must hold on every path: a flag that can be false, a class that can be
/// AfterFirstUnlock, a permanence that can be true keep the rule from judging the item by its other path.
@Suite struct ItemAttributeFlowTests {
    func messages(_ rule: String, in text: String, with others: [SourceFile] = []) -> [String] {
        findings(in: text, with: others).filter { $0.rule.id == rule }.map(\.message)
    }

    // MARK: KL501 macOSFileBasedKeychain

    @Test func aFlagThatCanBeFalseOnOnePathLeavesTheItemInTheFileKeychain() {
        let source = """
            import AppKit
            func save(_ data: Data, shared: Bool) -> OSStatus {
                var item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data]
                item[kSecAttrSynchronizable as String] = false
                if shared {
                    item[kSecAttrSynchronizable as String] = true
                }
                return SecItemAdd(item as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL501", in: source) == ["8:12"])
        #expect(messages("KL501", in: source).first?.contains("kSecAttrSynchronizable can be false here") == true)
        let switched = """
            import AppKit
            enum Scope { case device, cloud }
            func save(_ data: Data, scope: Scope) -> OSStatus {
                var sync = kCFBooleanTrue
                switch scope {
                case .device: sync = kCFBooleanFalse
                case .cloud: break
                }
                return SecItemAdd([kSecValueData: data, kSecAttrSynchronizable: sync] as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL501", in: switched) == ["9:12"])
        #expect(messages("KL501", in: switched).first?.contains("`sync` holds it on one branch (line 6)") == true)
    }

    @Test func aFlagFromAHelperOfTheFileIsFollowed() {
        let source = """
            import AppKit
            struct CloudStore {
                var syncs: Bool { true }
                func save(_ data: Data) -> OSStatus {
                    SecItemAdd([kSecValueData: data, kSecAttrSynchronizable: syncs] as CFDictionary, nil)
                }
            }
            """
        #expect(locations(of: "KL501", in: source).isEmpty)
        let local = source.replacingOccurrences(of: "var syncs: Bool { true }", with: "var syncs: Bool { false }")
        #expect(locations(of: "KL501", in: local) == ["5:9"])
        #expect(messages("KL501", in: local).first?.contains("line 3 in `syncs`") == true)
    }

    @Test func aDeadArmAndATrueFlagOnEveryPathKeepTheItemSynchronized() {
        let source = """
            import AppKit
            func save(_ data: Data, fast: Bool) -> OSStatus {
                var sync = true
                if false {
                    sync = false
                }
                let always = fast ? true : kCFBooleanTrue!
                _ = SecItemAdd([kSecValueData: data, kSecAttrSynchronizable: always] as CFDictionary, nil)
                return SecItemAdd([kSecValueData: data, kSecAttrSynchronizable: sync] as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL501", in: source).isEmpty)
        let live = source.replacingOccurrences(of: "if false {", with: "if fast {")
        #expect(locations(of: "KL501", in: live) == ["9:12"])
    }

    // MARK: KL505 backgroundReadOfWhenUnlockedItem

    static let appDelegate = """
        final class AppDelegate {
            let keychainStore = SessionStore()
            func application(_ application: UIApplication,
                             performFetchWithCompletionHandler completionHandler: @escaping (Result) -> Void) {
                let token = keychainStore.sessionToken()
                completionHandler(.newData)
            }
        }
        """

    static func store(adding body: String) -> SourceFile {
        SourceFile(
            path: "SessionStore.swift",
            text: """
                final class SessionStore {
                    var pinned = false
                \(body)
                    func sessionToken() -> Data? {
                        var result: CFTypeRef?
                        SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: "session",
                                             kSecReturnData: true] as CFDictionary, &result)
                        return result as? Data
                    }
                }
                """)
    }

    func backgroundReads(adding body: String) -> [String] {
        locations(of: "KL505", in: Self.appDelegate, path: "AppDelegate.swift", with: [Self.store(adding: body)])
    }

    @Test func aWhenUnlockedClassOnEveryBranchIsFollowed() {
        let ternary = """
                func save(_ token: Data) {
                    let level = pinned ? kSecAttrAccessibleWhenUnlockedThisDeviceOnly : kSecAttrAccessibleWhenUnlocked
                    SecItemAdd([kSecAttrService: "session", kSecAttrAccessible: level, kSecValueData: token]
                        as CFDictionary, nil)
                }
            """
        #expect(backgroundReads(adding: ternary) == ["5:21"])
        // AfterFirstUnlock on one branch: the background read may be of that item, and stays silent.
        let oneArm = ternary.replacingOccurrences(
            of: ": kSecAttrAccessibleWhenUnlocked\n", with: ": kSecAttrAccessibleAfterFirstUnlock\n")
        #expect(oneArm != ternary)
        #expect(backgroundReads(adding: oneArm).isEmpty)
    }

    @Test func aClassFromAHelperOfTheFileIsFollowed() {
        let helper = """
                func tokenClass() -> CFString {
                    if pinned { return kSecAttrAccessibleWhenUnlockedThisDeviceOnly }
                    return kSecAttrAccessibleWhenUnlocked
                }
                func save(_ token: Data) {
                    SecItemAdd([kSecAttrService: "session", kSecAttrAccessible: tokenClass(), kSecValueData: token]
                        as CFDictionary, nil)
                }
            """
        #expect(backgroundReads(adding: helper) == ["5:21"])
    }

    @Test func aDeadArmDoesNotDecideTheClass() {
        let dead = """
                func save(_ token: Data) {
                    let level = true ? kSecAttrAccessibleWhenUnlocked : kSecAttrAccessibleAfterFirstUnlock
                    SecItemAdd([kSecAttrService: "session", kSecAttrAccessible: level, kSecValueData: token]
                        as CFDictionary, nil)
                }
            """
        #expect(backgroundReads(adding: dead) == ["5:21"])
        let fine = """
                func save(_ token: Data) {
                    var level = kSecAttrAccessibleAfterFirstUnlock
                    if false { level = kSecAttrAccessibleWhenUnlocked }
                    SecItemAdd([kSecAttrService: "session", kSecAttrAccessible: level, kSecValueData: token]
                        as CFDictionary, nil)
                }
            """
        #expect(backgroundReads(adding: fine).isEmpty)
    }

    // MARK: KL605 ephemeralKeyQueriedAsStored

    static func keyFile(_ creation: String) -> String {
        """
        import Security
        let tag = "com.example.signing".data(using: .utf8)!
        private let storesKeys = false
        \(creation)
        func signingKey() -> SecKey? {
            let query: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                        kSecReturnRef as String: true]
            var item: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess else { return nil }
            return (item as! SecKey)
        }
        """
    }

    @Test func aPermanenceThatIsFalseOnEveryBranchOrFromAHelperIsReported() {
        let helper = Self.keyFile(
            """
            func makeKey() -> SecKey? {
                let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                    kSecPrivateKeyAttrs as String: [kSecAttrApplicationTag as String: tag,
                                                    kSecAttrIsPermanent as String: storesKeys]]
                return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
            }
            """)
        #expect(locations(of: "KL605", in: helper) == ["8:12"])
        #expect(messages("KL605", in: helper).first?.contains("set kSecAttrIsPermanent to false") == true)
        let branches = helper.replacingOccurrences(
            of: "kSecAttrIsPermanent as String: storesKeys", with: "kSecAttrIsPermanent as String: persist"
        )
        .replacingOccurrences(
            of: "func makeKey() -> SecKey? {",
            with: "func makeKey(legacy: Bool) -> SecKey? {\n    let persist = legacy ? false : kCFBooleanFalse!")
        #expect(locations(of: "KL605", in: branches) == ["9:12"])
        // A permanence written again on the top level replaces the earlier one.
        let rewritten = Self.keyFile(
            """
            func makeKey() -> SecKey? {
                var attributes: [String: Any] = [kSecAttrApplicationTag as String: tag]
                attributes[kSecAttrIsPermanent as String] = true
                attributes[kSecAttrIsPermanent as String] = false
                return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
            }
            """)
        #expect(locations(of: "KL605", in: rewritten) == ["8:12"])
    }

    @Test func aPermanenceTrueOnSomeLivePathOrACreationInADeadArmIsSilent() {
        let oneArm = Self.keyFile(
            """
            func makeKey(persist: Bool) -> SecKey? {
                let attributes: [String: Any] = [kSecAttrApplicationTag as String: tag,
                                                 kSecAttrIsPermanent as String: persist ? true : false]
                return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
            }
            """)
        #expect(locations(of: "KL605", in: oneArm).isEmpty)
        let deadTrue = oneArm.replacingOccurrences(of: "persist ? true : false", with: "false ? true : false")
        #expect(locations(of: "KL605", in: deadTrue) == ["7:12"])
        let deadCreation = Self.keyFile(
            """
            func makeKey() -> SecKey? {
                if false {
                    return SecKeyCreateRandomKey([kSecAttrApplicationTag: tag] as CFDictionary, nil)
                }
                return nil
            }
            """)
        #expect(locations(of: "KL605", in: deadCreation).isEmpty)
    }

    @Test func aTagSetInTheArmsOfAnIfNamesEveryKeyItCanBe() {
        let source = Self.keyFile(
            """
            func makeKey(backup: Bool) -> SecKey? {
                var keyTag = tag
                if backup {
                    keyTag = "com.example.backup".data(using: .utf8)!
                }
                return SecKeyCreateRandomKey([kSecAttrApplicationTag: keyTag] as CFDictionary, nil)
            }
            """)
        #expect(locations(of: "KL605", in: source) == ["9:12"])
        let dead = source.replacingOccurrences(
            of: "var keyTag = tag\n    if backup {",
            with:
                "var keyTag = \"com.example.backup\".data(using: .utf8)!\n    if false {"
        )
        .replacingOccurrences(
            of: "keyTag = \"com.example.backup\".data(using: .utf8)!\n    }", with: "keyTag = tag\n    }")
        #expect(dead != source)
        #expect(locations(of: "KL605", in: dead).isEmpty)
    }
}
