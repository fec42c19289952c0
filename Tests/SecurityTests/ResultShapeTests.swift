import Foundation
import Security
import Testing

/// Results come back as the NS objects Apple returns, in the shapes the kSecReturn flags ask for.
@Suite struct ResultShapeTests {
    private let base: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc"]

    private func copy(_ extra: [String: Any]) -> (OSStatus, AnyObject?) {
        var result: AnyObject?
        let status = SecItemCopyMatching(base.merging(extra) { $1 } as CFDictionary, &result)
        return (status, result)
    }

    @Test func attributesAreADictionaryIndexableWithTheConstants() throws {
        try withFreshKeychain {
            addPassword(service: "svc", account: "alice", secret: "s", extra: [kSecAttrLabel as String: "Alice"])
            let (status, result) = copy([kSecReturnAttributes as String: true])
            #expect(status == errSecSuccess)
            let attributes = try #require(result as? [String: Any])
            #expect(attributes[kSecAttrAccount as String] as? String == "alice")
            #expect(attributes[kSecAttrLabel as String] as? String == "Alice")
            #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
            #expect(attributes[kSecAttrAccessGroup as String] as? String == "TEAM1.com.example.app")
            #expect(attributes[kSecAttrSynchronizable as String] as? Bool == false)
            #expect(attributes[kSecValueData as String] == nil)
            // Darwin parity: a result bridged to [AnyHashable: Any] can be indexed with the constant itself.
            let anyKeys = try #require(result as? [AnyHashable: Any])
            #expect(anyKeys[kSecAttrAccount] as? String == "alice")
            #expect(anyKeys[kSecAttrAccount as String] as? String == "alice")
            #expect((result as? NSDictionary)?[kSecAttrAccount] as? String == "alice")
        }
    }

    @Test func dataAndAttributesTogetherGiveOneDictionary() throws {
        try withFreshKeychain {
            addPassword(service: "svc", account: "alice", secret: "s")
            let (status, result) = copy([kSecReturnAttributes as String: true, kSecReturnData as String: true])
            #expect(status == errSecSuccess)
            let item = try #require(result as? [String: Any])
            #expect(item[kSecValueData as String] as? Data == Data("s".utf8))
            #expect(item[kSecAttrAccount as String] as? String == "alice")
        }
    }

    @Test func limitAllGivesAnArrayInInsertionOrder() throws {
        try withFreshKeychain {
            for name in ["c", "a", "b"] { addPassword(service: "svc", account: name, secret: name) }
            let (status, result) = copy([
                kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
            ])
            #expect(status == errSecSuccess)
            let items = try #require(result as? [[String: Any]])
            #expect(items.map { $0[kSecAttrAccount as String] as? String } == ["c", "a", "b"])

            let (_, two) = copy([kSecReturnData as String: true, kSecMatchLimit as String: 2])
            #expect((two as? [Data])?.count == 2)
            let (_, one) = copy([kSecReturnData as String: true, kSecMatchLimit as String: 1])
            #expect(one as? Data == Data("c".utf8))
            let (zero, nothing) = copy([kSecReturnData as String: true, kSecMatchLimit as String: 0])
            #expect(zero == errSecItemNotFound)
            #expect(nothing == nil)
        }
    }

    /// securityd reads a numeric kSecMatchLimit as a CFIndex (`SecDbQuery.c`): -1 is its kSecMatchUnlimited, so
    /// every match comes back, as an array. Any other negative count appends `LIMIT -n` (no limit to SQLite), but
    /// the row loop of `s3dl_query_handler` (`SecItemDb.c`) stops once `found >= limit`, true after the first row:
    /// an array of the first match only.
    @Test func negativeLimitsAreUnlimitedOrFirstMatchAsOnIOS() throws {
        try withFreshKeychain {
            for name in ["c", "a", "b"] { addPassword(service: "svc", account: name, secret: name) }
            let (all, every) = copy([kSecReturnData as String: true, kSecMatchLimit as String: -1])
            #expect(all == errSecSuccess)
            #expect((every as? [Data]) == [Data("c".utf8), Data("a".utf8), Data("b".utf8)])
            let (first, firstOnly) = copy([kSecReturnAttributes as String: true, kSecMatchLimit as String: -3])
            #expect(first == errSecSuccess)
            let items = try #require(firstOnly as? [[String: Any]])
            #expect(items.map { $0[kSecAttrAccount as String] as? String } == ["c"])
            let (none, nothing) = copy([
                kSecAttrAccount as String: "zed", kSecReturnData as String: true, kSecMatchLimit as String: -2,
            ])
            #expect(none == errSecItemNotFound)
            #expect(nothing == nil)
            // A delete's limit of -1 is its kSecMatchUnlimited too (SecItemServer.c); -2 is a limit (errSecParam).
            #expect(SecItemDelete(base.merging([kSecMatchLimit as String: -2]) { $1 } as CFDictionary) == errSecParam)
            #expect(SecItemDelete(base.merging([kSecMatchLimit as String: -1]) { $1 } as CFDictionary) == errSecSuccess)
            #expect(copy([:]).0 == errSecItemNotFound)
        }
    }

    @Test func persistentReferencesAreStableAndNeedNoClass() throws {
        try withFreshKeychain {
            addPassword(service: "svc", account: "alice", secret: "s")
            let (status, result) = copy([kSecReturnPersistentRef as String: true])
            #expect(status == errSecSuccess)
            let reference = try #require(result as? Data)
            #expect(reference.count == 20)
            let update = SecItemUpdate(base as CFDictionary, [kSecAttrLabel as String: "renamed"] as CFDictionary)
            #expect(update == errSecSuccess)
            var found: AnyObject?
            let byReference: [String: Any] = [
                kSecValuePersistentRef as String: reference, kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(byReference as CFDictionary, &found) == errSecSuccess)
            #expect(found as? Data == Data("s".utf8))
            // A reference names its item alone: iOS refuses attributes beside it.
            let mixed = byReference.merging([kSecAttrAccount as String: "alice"]) { $1 }
            #expect(SecItemCopyMatching(mixed as CFDictionary, &found) == errSecParam)
        }
    }

    @Test func accountStoredAsDataComesBackAsData() throws {
        try withFreshKeychain {
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
                kSecAttrAccount as String: Data("bob".utf8), kSecValueData as String: Data("s".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            // The same bytes as a string find it.
            let (status, result) = copy([kSecAttrAccount as String: "bob", kSecReturnAttributes as String: true])
            #expect(status == errSecSuccess)
            #expect((result as? [String: Any])?[kSecAttrAccount as String] as? Data == Data("bob".utf8))
        }
    }

    @Test func addCanReturnTheNewItem() throws {
        try withFreshKeychain {
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a",
                kSecValueData as String: Data("s".utf8), kSecReturnPersistentRef as String: true,
            ]
            var result: AnyObject?
            #expect(SecItemAdd(add as CFDictionary, &result) == errSecSuccess)
            #expect((result as? Data)?.count == 20)
        }
    }

    @Test func noReturnFlagsMeansExistenceCheck() throws {
        try withFreshKeychain {
            addPassword(service: "svc", account: "a", secret: "s")
            let (status, result) = copy([:])
            #expect(status == errSecSuccess)
            #expect(result == nil)
        }
    }

    /// Apple's server adds `class` only for kSecReturnRef: code that turns a result back into a query, or
    /// compares results, relies on it (issue 11).
    @Test func attributesCarryTheClassOnlyWhenAReferenceIsAsked() throws {
        try withFreshKeychain {
            addPassword(service: "svc", account: "alice", secret: "s")
            let (_, attributes) = copy([kSecReturnAttributes as String: true])
            let plain = try #require(attributes as? [String: Any])
            #expect(plain[kSecClass as String] == nil)
            #expect(plain[kSecAttrAccount as String] as? String == "alice")
            let (_, withData) = copy([kSecReturnAttributes as String: true, kSecReturnData as String: true])
            #expect((withData as? [String: Any])?[kSecClass as String] == nil)
            let (status, withReference) = copy([kSecReturnAttributes as String: true, kSecReturnRef as String: true])
            #expect(status == errSecSuccess)
            let referenced = try #require(withReference as? [String: Any])
            #expect(referenced[kSecClass as String] as? String == "genp")
            #expect(referenced[kSecAttrAccount as String] as? String == "alice")
            // It has no reference object, so its data stays in the dictionary (iOS's client keeps what it fetched
            // to make one).
            #expect(referenced[kSecValueData as String] as? Data == Data("s".utf8))
            #expect(referenced[kSecValueRef as String] == nil)
            // A password has no reference object: the reference alone returns nothing, as on iOS.
            let (alone, nothing) = copy([kSecReturnRef as String: true])
            #expect(alone == errSecSuccess)
            #expect(nothing == nil)
            // All of them: an empty array, as Apple's client builds the array and skips what has no reference.
            let (all, none) = copy([kSecReturnRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll])
            #expect(all == errSecSuccess)
            #expect((none as? [Any])?.isEmpty == true)
        }
    }

    /// Apple's si-80-empty-data: an item stored without data has no v_Data in an attributes-plus-data result,
    /// and kSecReturnData alone gives empty data.
    @Test func anItemWithoutDataHasNoDataKey() throws {
        try withFreshKeychain {
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
                kSecAttrAccount as String: "empty",
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let (status, result) = copy([
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnData as String: true,
                kSecReturnAttributes as String: true,
            ])
            #expect(status == errSecSuccess)
            let rows = try #require(result as? [[String: Any]])
            #expect(rows.count == 1)
            #expect(rows.first?[kSecValueData as String] == nil)
            #expect(rows.first?[kSecAttrAccount as String] as? String == "empty")
            let (dataStatus, data) = copy([kSecReturnData as String: true])
            #expect(dataStatus == errSecSuccess)
            #expect(data as? Data == Data())
        }
    }
}
