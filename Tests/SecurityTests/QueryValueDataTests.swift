import Foundation
import KeychainCore
import Testing

@testable import Security

/// kSecValueData in the query of SecItemCopyMatching, SecItemUpdate and SecItemDelete: iOS accepts it when it is
/// data and never filters on it (issue 11).
@Suite struct QueryValueDataTests {
    private let item: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
        kSecAttrAccount as String: "me",
    ]

    private func secret() -> Data? {
        var result: AnyObject?
        let query = item.merging([kSecReturnData as String: true]) { $1 }
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
        return result as? Data
    }

    @Test func copyMatchingAcceptsDataAndDoesNotFilterOnIt() throws {
        try withFreshKeychain {
            addPassword(service: "svc", account: "me", secret: "pw")
            var found: AnyObject?
            let query = item.merging([
                kSecValueData as String: Data("not the password".utf8), kSecReturnData as String: true,
            ]) { $1 }
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            #expect(found as? Data == Data("pw".utf8))
            let text = item.merging([kSecValueData as String: "pw"]) { $1 }
            #expect(SecItemCopyMatching(text as CFDictionary, nil) == errSecParam)
        }
    }

    /// Apple's own tests update with the old password in the query; a popular wrapper reuses its add dictionary,
    /// new data included, as the update's query.
    @Test func updateQueryWithDataChangesTheItem() throws {
        try withFreshKeychain {
            addPassword(service: "svc", account: "me", secret: "old")
            let oldInQuery = item.merging([kSecValueData as String: Data("old".utf8)]) { $1 }
            let changes = [kSecValueData as String: Data("new".utf8)]
            #expect(SecItemUpdate(oldInQuery as CFDictionary, changes as CFDictionary) == errSecSuccess)
            #expect(secret() == Data("new".utf8))
            let addDictionary = item.merging([kSecValueData as String: Data("newer".utf8)]) { $1 }
            let again = [kSecValueData as String: Data("newer".utf8)]
            #expect(SecItemUpdate(addDictionary as CFDictionary, again as CFDictionary) == errSecSuccess)
            #expect(secret() == Data("newer".utf8))
            let text = item.merging([kSecValueData as String: "newer"]) { $1 }
            #expect(SecItemUpdate(text as CFDictionary, again as CFDictionary) == errSecParam)
        }
    }

    @Test func deleteAcceptsDataOnlyAndDoesNotFilterOnIt() throws {
        try withFreshKeychain {
            addPassword(service: "svc", account: "me", secret: "pw")
            let text = item.merging([kSecValueData as String: "pw"]) { $1 }
            #expect(SecItemDelete(text as CFDictionary) == errSecParam)
            let other = item.merging([kSecValueData as String: Data("other".utf8)]) { $1 }
            #expect(SecItemDelete(other as CFDictionary) == errSecSuccess)
            #expect(secret() == nil)
        }
    }

    @Test func debugNotesSayTheDataWasIgnored() throws {
        let query = item.merging([kSecValueData as String: Data("pw".utf8)]) { $1 } as NSDictionary
        var notes: [KeychainError.Reason] = []
        _ = try SecItemRequest.copyMatching(query, notes: &notes)
        #expect(
            notes.map(\.english) == ["kSecValueData in the query is ignored: a query never matches on an item's data"])
        notes = []
        _ = try SecItemRequest.update(query, [kSecAttrLabel as String: "x"] as NSDictionary, notes: &notes)
        #expect(notes.count == 1 && notes[0].english.hasPrefix("kSecValueData in the query is ignored"))
        notes = []
        _ = try SecItemRequest.delete(query, notes: &notes)
        #expect(notes.count == 1 && notes[0].english.hasPrefix("kSecValueData in the query is ignored"))
        notes = []
        _ = try SecItemRequest.copyMatching(item as NSDictionary, notes: &notes)
        #expect(notes.isEmpty)
    }
}
