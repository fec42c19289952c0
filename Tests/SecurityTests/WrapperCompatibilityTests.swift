import Foundation
import Security
import Testing

/// Call shapes that popular keychain wrappers written for iOS use, each checked here because a wrapper's own
/// test suite once failed on it (see the wrapper compatibility runs in the docs). Written for this project in
/// the wrappers' style; none of their code is copied.
@Suite struct WrapperCompatibilityTests {
    /// Wrappers turn constants into Strings with `String(_: NSString)` and compare them in `switch` cases
    /// (`case String(kSecClassGenericPassword):`). A `kSec…` constant whose NSString storage was empty (a
    /// subclass overriding only `length`/`character(at:)`) gave "" here, so every raw-value enum missed.
    @Test func stringInitializerOnConstantsGivesTheRawValue() {
        #expect(String(kSecClass) == "class")
        #expect(String(kSecClassGenericPassword) == "genp")
        #expect(String(kSecClassInternetPassword) == "inet")
        #expect(String(kSecAttrAccessibleWhenUnlocked) == "ak")
        #expect(String(kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly) == "cku")
        #expect(String(kSecAttrProtocolHTTPS) == "htps")
        #expect(String(kSecAttrAuthenticationTypeHTMLForm) == "form")
        #expect(String(kSecMatchLimitAll) == "m_LimitAll")
        #expect(String(kSecAttrSynchronizableAny) == "syna")
        #expect(String(kSecValueData).utf16.count == kSecValueData.length)
    }

    /// A raw-value enum keyed by `String(kSec…)`, as wrappers declare them.
    private enum ItemClassName: Equatable {
        case generic, internet
        init?(rawValue: String) {
            switch rawValue {
            case String(kSecClassGenericPassword): self = .generic
            case String(kSecClassInternetPassword): self = .internet
            default: return nil
            }
        }
    }

    @Test func rawValueEnumsBuiltFromConstantsMatch() {
        #expect(ItemClassName(rawValue: kSecClassGenericPassword as String) == .generic)
        #expect(ItemClassName(rawValue: "inet") == .internet)
        #expect(ItemClassName(rawValue: kSecClassCertificate as String) == nil)
    }

    /// Keys and values made with `String(kSec…)` drive the SecItem calls, and the results are read back with
    /// the same keys.
    @Test func dictionariesKeyedWithStringInitializerRoundTrip() throws {
        try withFreshKeychain {
            var query: [String: Any] = [
                String(kSecClass): String(kSecClassInternetPassword),
                String(kSecAttrServer): "example.com",
                String(kSecAttrProtocol): String(kSecAttrProtocolHTTPS),
                String(kSecAttrAuthenticationType): String(kSecAttrAuthenticationTypeDefault),
                String(kSecAttrAccount): "user",
            ]
            var add = query
            add[String(kSecValueData)] = Data("secret".utf8)
            add[String(kSecAttrAccessible)] = String(kSecAttrAccessibleAfterFirstUnlock)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)

            query[String(kSecAttrSynchronizable)] = kSecAttrSynchronizableAny
            query[String(kSecMatchLimit)] = kSecMatchLimitAll
            query[String(kSecReturnAttributes)] = kCFBooleanTrue
            query[String(kSecReturnData)] = kCFBooleanTrue
            var result: AnyObject?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let items = try #require(result as? [[String: Any]])
            #expect(items.count == 1)
            let item = try #require(items.first)
            #expect(item[String(kSecAttrAccessible)] as? String == String(kSecAttrAccessibleAfterFirstUnlock))
            #expect(item[String(kSecAttrProtocol)] as? String == String(kSecAttrProtocolHTTPS))
            #expect(item[String(kSecAttrAccount)] as? String == "user")
            #expect(item[String(kSecValueData)] as? Data == Data("secret".utf8))
        }
    }

    /// keychain-swift reads through `withUnsafeMutablePointer(to: &result)` and deletes with
    /// kSecAttrSynchronizableAny; KeychainAccess's `removeAll` (non-iOS build) deletes with kSecMatchLimitAll.
    @Test func wrapperReadAndClearShapes() throws {
        try withFreshKeychain {
            for account in ["one", "two"] {
                let add: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccount as String: account,
                    kSecValueData as String: Data(account.utf8),
                    kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked as String,
                ]
                #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            }
            let read: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccount as String: "one",
                kSecReturnData as String: true,
                kSecMatchLimit as String: kSecMatchLimitOne,
                kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            ]
            var result: AnyObject?
            let status = withUnsafeMutablePointer(to: &result) {
                SecItemCopyMatching(read as CFDictionary, UnsafeMutablePointer($0))
            }
            #expect(status == noErr)
            #expect(result as? Data == Data("one".utf8))

            let clear: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecMatchLimit as String: kSecMatchLimitAll,
                kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            ]
            #expect(SecItemDelete(clear as CFDictionary) == errSecSuccess)
            #expect(SecItemDelete(clear as CFDictionary) == errSecItemNotFound)
        }
    }
}
