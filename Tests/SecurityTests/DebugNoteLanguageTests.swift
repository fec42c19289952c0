import Foundation
import KeychainCore
import KeychainMessages
import Testing

@testable import Security

/// The notes `KEYCHAIN_DEBUG=1` prints for a call that succeeds (keys it ignores, combinations it warns of) are
/// reasons like a failure's: Japanese under a Japanese locale, English exactly as before.
@Suite struct DebugNoteLanguageTests {
    @Test func anIgnoredSearchKeysNoteIsJapanese() throws {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "café",
            kSecMatchDiacriticInsensitive as String: true,
        ]
        var notes: [KeychainError.Reason] = []
        _ = try SecItemRequest.copyMatching(query as NSDictionary, notes: &notes)
        #expect(
            notes.map(\.english)
                == ["m_DiacriticInsensitive is ignored, as by the iOS keychain: strings match exactly"])
        #expect(
            SecurityRuntime.noteLines("SecItemCopyMatching", notes, in: .japanese)
                == [
                    "SecItemCopyMatching: m_DiacriticInsensitive は iOS のキーチェーンと同じく無視します: "
                        + "文字列は完全に一致するものだけを照合します"
                ])
        #expect(
            SecurityRuntime.noteLines("SecItemCopyMatching", notes, in: .english)
                == [
                    "SecItemCopyMatching: m_DiacriticInsensitive is ignored, as by the iOS keychain: "
                        + "strings match exactly"
                ])
    }

    @Test func aQuerysValueDataNoteIsJapanese() throws {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecValueData as String: Data("hunter2".utf8),
        ]
        var notes: [KeychainError.Reason] = []
        _ = try SecItemRequest.delete(query as NSDictionary, notes: &notes)
        #expect(notes.count == 1)
        let japanese = try #require(notes.first?.text(in: .japanese))
        #expect(japanese == "クエリの kSecValueData は無視します: 検索は項目のデータでは照合しません")
        #expect(!japanese.contains("hunter2"))
    }

    @Test func theSynchronizableThisDeviceOnlyNoteIsJapanese() throws {
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s",
            kSecAttrSynchronizable as String: true,
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            kSecValueData as String: Data("pw".utf8),
        ]
        var notes: [KeychainError.Reason] = []
        _ = try SecItemRequest.add(add as NSDictionary, notes: &notes)
        #expect(
            notes.map(\.english) == [
                "kSecAttrSynchronizable with the ThisDeviceOnly (aku) class: stored as iOS stores it, but Apple's "
                    + "documentation rules the combination out, and the item never leaves this machine"
            ])
        let japanese = try #require(notes.first?.text(in: .japanese))
        #expect(japanese.hasPrefix("kSecAttrSynchronizable と ThisDeviceOnly の保護クラス（aku）の組み合わせです"))
    }
}
