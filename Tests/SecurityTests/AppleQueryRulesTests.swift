import Foundation
import Security
import Testing

/// Rules of Apple's keychain that code copying items around runs into: the dates of a returned dictionary can be
/// given back, data with a reference brings the attributes, and a persistent reference names its item alone.
@Suite struct AppleQueryRulesTests {
    private let base: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: "svc"]

    private func copy(_ query: [CFString: Any]) -> (OSStatus, AnyObject?) {
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    /// Migration code re-adds what kSecReturnAttributes and kSecReturnData gave (dates included) under a new
    /// account or group, and updates with it: the add takes its own time, the update keeps the creation date.
    @Test func aReturnedDictionaryGoesBackIntoAnAddAndAnUpdate() throws {
        try withFreshKeychain {
            let add = base.merging([kSecAttrAccount: "old", kSecValueData: Data("pw".utf8)]) { $1 }
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let (status, found) = copy(
                base.merging([kSecAttrAccount: "old", kSecReturnAttributes: true, kSecReturnData: true]) { $1 })
            #expect(status == errSecSuccess)
            var item = try #require(found as? [String: Any])
            let created = try #require(item[kSecAttrCreationDate as String] as? Date)
            item[kSecAttrAccount as String] = "new"
            item[kSecClass as String] = kSecClassGenericPassword
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
            let (_, copied) = copy(base.merging([kSecAttrAccount: "new", kSecReturnData: true]) { $1 })
            #expect(copied as? Data == Data("pw".utf8))

            let past = Date(timeIntervalSinceReferenceDate: 1_000)
            let changes: [CFString: Any] = [kSecAttrCreationDate: past, kSecAttrModificationDate: past]
            let query = base.merging([kSecAttrAccount: "old"]) { $1 }
            #expect(SecItemUpdate(query as CFDictionary, changes as CFDictionary) == errSecSuccess)
            let (_, updated) = copy(query.merging([kSecReturnAttributes: true]) { $1 })
            let attributes = try #require(updated as? [String: Any])
            #expect(attributes[kSecAttrCreationDate as String] as? Date == past)
            #expect(try #require(attributes[kSecAttrModificationDate as String] as? Date) >= created)
        }
    }

    /// Apple's client asks for the attributes whenever data comes with another return key: listing items with
    /// data and persistent references gives their accounts too.
    @Test func dataWithAPersistentReferenceBringsTheAttributes() throws {
        try withFreshKeychain {
            let add = base.merging([kSecAttrAccount: "a", kSecValueData: Data("pw".utf8)]) { $1 }
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let (status, found) = copy(
                base.merging([kSecReturnData: true, kSecReturnPersistentRef: true, kSecMatchLimit: kSecMatchLimitAll]) {
                    $1
                })
            #expect(status == errSecSuccess)
            let first = try #require((found as? [[String: Any]])?.first)
            #expect(first[kSecAttrAccount as String] as? String == "a")
            #expect(first[kSecValueData as String] as? Data == Data("pw".utf8))
            #expect(first[kSecValuePersistentRef as String] is Data)
            // Data alone stays bare.
            let (_, bare) = copy(base.merging([kSecReturnData: true]) { $1 })
            #expect(bare as? Data == Data("pw".utf8))
        }
    }

    /// iOS answers errSecParam when attributes stand beside a persistent reference, in every function; only
    /// kSecAttrSynchronizableAny may.
    @Test func aPersistentReferenceNamesItsItemAlone() throws {
        try withFreshKeychain {
            let add = base.merging([kSecAttrAccount: "a", kSecValueData: Data("pw".utf8)]) { $1 }
            var added: AnyObject?
            let addQuery = add.merging([kSecReturnPersistentRef: true]) { $1 }
            #expect(SecItemAdd(addQuery as CFDictionary, &added) == errSecSuccess)
            let reference = try #require(added as? Data)
            let byReference: [CFString: Any] = [kSecValuePersistentRef: reference]
            for extra: [CFString: Any] in [
                [kSecAttrAccount: "a"], [kSecAttrAccessGroup: "TEAM1.com.example.app"],
                [kSecAttrSynchronizable: true], [kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked],
            ] {
                let query = byReference.merging(extra) { $1 }
                #expect(copy(query.merging([kSecReturnData: true]) { $1 }).0 == errSecParam, "\(extra)")
                #expect(SecItemUpdate(query as CFDictionary, [kSecAttrLabel: "l"] as CFDictionary) == errSecParam)
                #expect(SecItemDelete(query as CFDictionary) == errSecParam)
            }
            let anySync = byReference.merging([kSecAttrSynchronizable: kSecAttrSynchronizableAny]) { $1 }
            #expect(copy(anySync.merging([kSecReturnData: true]) { $1 }).0 == errSecSuccess)
            #expect(SecItemDelete(anySync as CFDictionary) == errSecSuccess)
        }
    }
}
