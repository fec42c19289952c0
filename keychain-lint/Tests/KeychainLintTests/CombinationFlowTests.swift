import Testing

@testable import KeychainLint

/// KL103 and KL302 follow the protection class and the synchronizable flag to every value that reaches the item, as
/// KL101 does: a class written in one arm, a conditional, a helper of the file or of the module counts; a value
/// overwritten before the add, or written in an arm that `if false` never takes, does not.
@Suite struct CombinationFlowTests {
    func messages(_ rule: String, in text: String, path: String = "Fixture.swift", with others: [SourceFile] = [])
        -> [String]
    {
        findings(in: text, path: path, with: others).filter { $0.rule.id == rule }.map(\.message)
    }

    // MARK: KL103

    @Test func aMigratingClassOnOneBranchOrFromAHelperIsReported() throws {
        let source = """
            import Security
            enum Protection {
                static func tokens() -> CFString { kSecAttrAccessibleWhenUnlocked }
            }
            func saveToken(_ data: Data, portable: Bool) -> OSStatus {
                let protection = portable ? kSecAttrAccessibleAfterFirstUnlock : kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccount as String: "refreshToken",
                    kSecAttrAccessible as String: protection,
                    kSecValueData as String: data,
                ]
                return SecItemAdd(query as CFDictionary, nil)
            }
            func savePassword(_ data: Data) -> OSStatus {
                SecItemAdd([
                    kSecClass: kSecClassGenericPassword, kSecAttrAccount: "password",
                    kSecAttrAccessible: Protection.tokens(), kSecValueData: data,
                ] as CFDictionary, nil)
            }
            func saveKey(_ data: Data, bound: Bool) -> OSStatus {
                var query: [String: Any] = [
                    kSecClass as String: kSecClassKey,
                    kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
                    kSecValueData as String: data,
                ]
                if bound {
                    query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                }
                return SecItemAdd(query as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL103", in: source) == ["10:39", "18:29", "24:39"])
        let found = messages("KL103", in: source)
        try #require(found.count == 3)
        #expect(found.first?.contains("kSecAttrAccessibleAfterFirstUnlock can be this credential's class") == true)
        #expect(found.first?.contains("`protection` holds it on one branch (line 6)") == true)
        #expect(found[1].contains("line 3 in `tokens`"))
        // A class written at the item keeps the short message, also when a later arm may replace it.
        #expect(found.last?.hasPrefix("kSecAttrAccessibleAfterFirstUnlock lets this credential move") == true)
    }

    @Test func anOverwrittenOrDeadMigratingClassIsSilent() {
        let source = """
            import Security
            func saveToken(_ data: Data) -> OSStatus {
                var protection = kSecAttrAccessibleAfterFirstUnlock
                protection = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                var legacy = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                if false { legacy = kSecAttrAccessibleWhenUnlocked }
                var query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccount as String: "refreshToken",
                    kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
                    kSecValueData as String: data,
                ]
                query[kSecAttrAccessible as String] = protection
                if false { query[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked }
                let first = SecItemAdd(query as CFDictionary, nil)
                query[kSecAttrAccessible as String] = legacy
                return first == errSecSuccess ? SecItemAdd(query as CFDictionary, nil) : first
            }
            """
        #expect(locations(of: "KL103", in: source).isEmpty)
        // Once the branches can be taken, both the dead values are reported where they reach the item.
        let live = source.replacingOccurrences(of: "if false", with: "if Bool.random()")
        #expect(locations(of: "KL103", in: live) == ["14:62", "16:43"])
    }

    // MARK: KL302

    @Test func aThisDeviceOnlyClassOrASynchronizableFlagFromABranchOrAHelperIsReported() throws {
        let source = """
            import Security
            enum Sync {
                static var enabled: CFBoolean { kCFBooleanTrue }
            }
            func save(_ data: Data, pinned: Bool, access: SecAccessControl, cloud: Bool) -> [OSStatus] {
                let protection = pinned ? kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly : kSecAttrAccessibleAfterFirstUnlock
                let first = SecItemAdd([
                    kSecAttrSynchronizable: kCFBooleanTrue!, kSecAttrAccessible: protection, kSecValueData: data,
                ] as CFDictionary, nil)
                let second = SecItemAdd([
                    kSecAttrSynchronizable: Sync.enabled,
                    kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                ] as CFDictionary, nil)
                var query: [String: Any] = [kSecAttrAccessControl as String: access, kSecValueData as String: data]
                query[kSecAttrSynchronizable as String] = cloud ? kCFBooleanTrue : kCFBooleanFalse
                let third = SecItemAdd(query as CFDictionary, nil)
                return [first, second, third]
            }
            """
        #expect(locations(of: "KL302", in: source) == ["8:9", "11:9", "15:11"])
        let found = messages("KL302", in: source)
        try #require(found.count == 3)
        #expect(found.first?.contains("kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly can be its class") == true)
        #expect(found.first?.contains("`protection` holds it on one branch (line 6)") == true)
        #expect(found[1].contains("kSecAttrSynchronizable can be true here") && found[1].contains("in `enabled`"))
        #expect(found.last?.hasPrefix("a synchronizable item cannot use an access control") == true)
        #expect(found.last?.contains("the value written holds it on one branch (line 15)") == true)
    }

    @Test func overwrittenDeadOrJointlyChosenConflictsAreSilent() {
        let source = """
            import Security
            func save(_ data: Data, shared: Bool, access: SecAccessControl) -> [OSStatus] {
                var query: [String: Any] = [
                    kSecAttrSynchronizable as String: true,
                    kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                ]
                query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
                if false { query[kSecAttrAccessControl as String] = access }
                let first = SecItemAdd(query as CFDictionary, nil)
                var protection = kSecAttrAccessibleWhenUnlocked
                if false { protection = kSecAttrAccessibleWhenUnlockedThisDeviceOnly }
                let second = SecItemAdd([
                    kSecAttrSynchronizable: kCFBooleanTrue!, kSecAttrAccessible: protection,
                ] as CFDictionary, nil)
                // One condition chooses both halves: a shared item syncs, a private one has an access control.
                var item: [String: Any] = [kSecValueData as String: data]
                item[kSecAttrSynchronizable as String] = shared ? kCFBooleanTrue : kCFBooleanFalse
                if !shared { item[kSecAttrAccessControl as String] = access }
                let third = SecItemAdd(item as CFDictionary, nil)
                return [first, second, third]
            }
            """
        #expect(locations(of: "KL302", in: source).isEmpty)
        let live = source.replacingOccurrences(of: "if false", with: "if Bool.random()")
        #expect(locations(of: "KL302", in: live) == ["4:9", "13:9"])
    }

    /// Valet's shape: an enum's `switch self` sets a local that the property returns. The case an item gets is chosen
    /// elsewhere, so the table is not a path the item takes; a case the code shows picks its own arm.
    @Test func aSwitchOnSelfThatSetsALocalIsAMapping() {
        let source = """
            import Security
            enum Accessibility {
                case afterFirstUnlock, afterFirstUnlockThisDeviceOnly
                var secAccessibilityAttribute: String {
                    let attribute: CFString
                    switch self {
                    case .afterFirstUnlock: attribute = kSecAttrAccessibleAfterFirstUnlock
                    case .afterFirstUnlockThisDeviceOnly: attribute = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                    }
                    return attribute as String
                }
            }
            func save(_ data: Data, accessibility: Accessibility) -> [OSStatus] {
                let synced: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "sessionToken",
                    kSecAttrSynchronizable as String: true,
                    kSecAttrAccessible as String: accessibility.secAccessibilityAttribute,
                ]
                let local: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "sessionToken",
                    kSecAttrAccessible as String: Accessibility.afterFirstUnlock.secAccessibilityAttribute,
                ]
                return [SecItemAdd(synced as CFDictionary, nil), SecItemAdd(local as CFDictionary, nil)]
            }
            """
        #expect(locations(of: "KL302", in: source).isEmpty)
        #expect(locations(of: "KL103", in: source) == ["21:39"])
        #expect(messages("KL103", in: source).first?.contains("line 7 in `secAccessibilityAttribute`") == true)
    }
}
