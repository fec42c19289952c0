import Foundation
import KeychainCore
import Testing

@testable import Security

/// kSecMatchDiacriticInsensitive and kSecMatchWidthInsensitive: Apple's query parser takes them and the iOS keychain
/// never applies them, so a query that carries them finds what it finds without them (issue 11's survey).
@Suite struct IgnoredSearchKeyTests {
    @Test(arguments: ["m_DiacriticInsensitive", "m_WidthInsensitive"])
    func acceptedWithoutEffect(key: String) throws {
        try withFreshKeychain {
            addPassword(service: "café", account: "me", secret: "pw")
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "café", key: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, nil) == errSecSuccess)
            query[kSecAttrService as String] = "cafe"
            #expect(SecItemCopyMatching(query as CFDictionary, nil) == errSecItemNotFound)
            var notes: [KeychainError.Reason] = []
            _ = try SecItemRequest.copyMatching(query as NSDictionary, notes: &notes)
            #expect(notes.map(\.english) == ["\(key) is ignored, as by the iOS keychain: strings match exactly"])
            let add = query.merging([kSecValueData as String: Data("pw".utf8)]) { $1 }
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecParam)
        }
    }
}
