import Foundation
import KeychainCore
import Testing

@testable import Security

/// A synchronizable item with a ThisDeviceOnly class: Apple's header says the two may not be combined, but iOS
/// stores such an item (sync = 1, pdmn aku) and KeychainAccess's own tests add one and read it back (issue 11).
/// An access control with constraints on a synchronizable item stays errSecParam, as in Apple's SecItem.m.
@Suite struct SynchronizableThisDeviceOnlyTests {
    private let item: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
        kSecAttrAccount as String: "me",
    ]

    private func attributes(_ extra: [String: Any]) -> [String: Any]? {
        var result: AnyObject?
        let query = item.merging(extra.merging([kSecReturnAttributes as String: true]) { $1 }) { $1 }
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
        return result as? [String: Any]
    }

    @Test(arguments: [
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String,
        kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String, kSecAttrAccessibleAlwaysThisDeviceOnly as String,
    ])
    func addStoresTheItemAsIOSDoes(protection: String) throws {
        try withFreshKeychain {
            let add = item.merging([
                kSecAttrSynchronizable as String: true, kSecAttrAccessible as String: protection,
                kSecValueData as String: Data("pw".utf8),
            ]) { $1 }
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let stored = try #require(attributes([kSecAttrSynchronizable as String: true]))
            #expect(stored[kSecAttrSynchronizable as String] as? Bool == true)
            #expect(stored[kSecAttrAccessible as String] as? String == protection)
            #expect(attributes([:]) == nil)  // a query without kSecAttrSynchronizable sees local items only
            #expect(attributes([kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]) != nil)
        }
    }

    @Test func updateMayCombineThem() throws {
        try withFreshKeychain {
            addPassword(service: "svc", account: "me", secret: "pw", extra: [kSecAttrSynchronizable as String: true])
            let synced = item.merging([kSecAttrSynchronizable as String: true]) { $1 }
            let change = [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
            #expect(SecItemUpdate(synced as CFDictionary, change as CFDictionary) == errSecSuccess)
            let stored = try #require(attributes([kSecAttrSynchronizable as String: true]))
            #expect(stored[kSecAttrAccessible as String] as? String == "cku")

            addPassword(
                service: "svc", account: "local", secret: "pw",
                extra: [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly])
            let local = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "local"]
            let sync = [kSecAttrSynchronizable as String: true]
            #expect(SecItemUpdate(local as CFDictionary, sync as CFDictionary) == errSecSuccess)
        }
    }

    @Test func constraintsOnASynchronizableItemStayParam() throws {
        try withFreshKeychain {
            var error: Unmanaged<CFError>?
            let constrained = try #require(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, &error))
            let add = item.merging([
                kSecAttrSynchronizable as String: true, kSecAttrAccessControl as String: constrained,
            ]) { $1 }
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecParam)
        }
    }

    @Test func debugNoteWarnsOfTheCombination() throws {
        var notes: [KeychainError.Reason] = []
        let add = item.merging([
            kSecAttrSynchronizable as String: true,
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ]) { $1 }
        _ = try SecItemRequest.add(add as NSDictionary, notes: &notes)
        #expect(notes.count == 1)
        #expect(notes.first?.english.contains("ThisDeviceOnly (aku)") == true)
        notes = []
        _ = try SecItemRequest.add(item as NSDictionary, notes: &notes)
        #expect(notes.isEmpty)
        notes = []
        let query = item.merging([kSecAttrSynchronizable as String: true]) { $1 }
        let change = [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
        _ = try SecItemRequest.update(query as NSDictionary, change as NSDictionary, notes: &notes)
        #expect(notes.first?.english.contains("ThisDeviceOnly (cku)") == true)
    }
}
