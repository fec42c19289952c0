import Foundation
import KeychainCore
import KeychainMessages
import Testing

@testable import Security

/// What `KEYCHAIN_DEBUG=1` prints for a failing SecItem call follows the locale: the status text and the reason,
/// in Japanese under a Japanese locale; the English line is as it was.
@Suite struct ReasonLanguageTests {
    /// The error a SecItemAdd of `attributes` fails with, on the keychain SecItemAdd uses.
    private func addFailure(_ attributes: [CFString: Any]) throws -> KeychainError {
        try #require(throws: KeychainError.self) {
            try SecurityRuntime.current().add(SecItemRequest.add(attributes as NSDictionary))
        }
    }

    @Test func aFailingSecItemAddExplainsItselfInJapanese() throws {
        try withFreshKeychain {
            let attributes: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "svc", kSecAttrAccount: "acct",
                kSecValueData: Data("hunter2".utf8),
            ]
            #expect(SecItemAdd(attributes as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(attributes as CFDictionary, nil) == errSecDuplicateItem)
            let error = try addFailure(attributes)
            let japanese = SecurityStatusText.debugLine(for: error, in: .japanese)
            #expect(
                japanese.hasPrefix(
                    "指定した項目はすでにキーチェーンにあります。 (OSStatus -25299): "
                        + "同じ主キーの項目がすでにあります（acct=\"acct\", svce=\"svc\""))
            #expect(japanese.hasSuffix("変更するには SecItemUpdate を使ってください"))
            #expect(!japanese.contains("hunter2"))
            let english = SecurityStatusText.debugLine(for: error, in: .english)
            #expect(english == "\(error)")
            #expect(
                english.hasPrefix(
                    "The specified item already exists in the keychain. (OSStatus -25299): "
                        + "an item with the same primary key exists (acct=\"acct\", svce=\"svc\""))
        }
    }

    @Test func theFacesOwnReasonsFollowTheLocaleToo() throws {
        try withFreshKeychain {
            let error = try addFailure([
                kSecClass: kSecClassGenericPassword, kSecAttrService: "svc", kSecValueData: "not data",
            ])
            #expect(error.status == errSecParam)
            #expect(error.reason?.hasPrefix("kSecValueData must be data (CFData), not ") == true)
            #expect(
                error.localizedReason(in: .japanese)?.hasPrefix("kSecValueData はデータ（CFData）にしてください（")
                    == true)
        }
    }

    /// The reason for keys a SecItem function does not take is built from translated pieces: the function, the
    /// group, and the groups it takes.
    @Test func aKeyTheFunctionDoesNotTakeIsExplainedInJapanese() throws {
        let error = try #require(throws: KeychainError.self) {
            _ = try SecItemRequest.add(
                [kSecClass: kSecClassGenericPassword, kSecMatchLimit: kSecMatchLimitOne] as NSDictionary)
        }
        #expect(error.status == errSecParam)
        #expect(
            error.reason == "SecItemAdd does not take search (kSecMatch…) properties (m_Limit); SecItemAdd takes "
                + "item class (kSecClass), attribute (kSecAttr…), return type (kSecReturn…), value (kSecValue…), "
                + "kSecUse… properties")
        #expect(
            error.localizedReason(in: .japanese)
                == "SecItemAdd は 検索（kSecMatch…） のプロパティを受け付けません（m_Limit）。SecItemAdd が受け付けるのは "
                + "項目クラス（kSecClass）、属性（kSecAttr…）、戻り値の型（kSecReturn…）、値（kSecValue…）、kSecUse… "
                + "のプロパティです")
        let update = try #require(throws: KeychainError.self) {
            _ = try SecItemRequest.update(
                [kSecClass: kSecClassGenericPassword] as NSDictionary,
                [kSecClass: kSecClassInternetPassword] as NSDictionary)
        }
        #expect(update.status == errSecNoSuchAttr)
        #expect(
            update.localizedReason(in: .japanese)?.hasPrefix(
                "SecItemUpdate の attributesToUpdate は 項目クラス（kSecClass） のプロパティを受け付けません（class）。"
                    + "更新で項目のクラスを変えることはできません。SecItemUpdate の attributesToUpdate が受け付けるのは ")
                == true)
    }
}
