import Foundation
import Testing

@testable import KeychainCore
@testable import KeychainMessages

/// Reasons are templates with typed arguments: English exactly as written, Japanese from the catalog, piece by
/// piece for reasons built from others, and English wherever a template has no translation.
@Suite struct ReasonTests {
    private typealias Reason = KeychainError.Reason

    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func aReasonRecordsItsTemplateAndTypedArgumentsAndReadsAsWritten() {
        let reason: Reason = "\(AttributeKey.account) is larger than \(4096) bytes"
        #expect(reason.template == "{0} is larger than {1} bytes")
        #expect(reason.arguments == [.attribute(.account), .number("4096")])
        #expect(reason.english == "acct is larger than 4096 bytes")
        #expect(reason.text(in: .japanese) == "acct が 4096 バイトを超えています")
        // A literal split across lines has the template of the whole.
        let split: Reason =
            "the keychain database is busy: another process has held its write lock for more than "
            + "\(2.5) s; nothing is damaged and nothing was changed, try again"
        #expect(split.template.hasSuffix("more than {0} s; nothing is damaged and nothing was changed, try again"))
        #expect(split.text(in: .japanese).contains("2.5 秒を超えて"))
    }

    @Test func aReasonWithoutATranslationStaysEnglishAndItsPartsStillTranslate() {
        let untranslated: Reason = "a reason no catalog words, about \("agrp")"
        #expect(untranslated.text(in: .japanese) == "a reason no catalog words, about agrp")
        let nested: Reason = "outer text no catalog words: \(Reason("the keychain database is damaged"))"
        #expect(nested.text(in: .japanese) == "outer text no catalog words: キーチェーンのデータベースが壊れています")
        #expect(
            Reason(verbatim: "the keychain database is damaged").text(in: .japanese)
                == "the keychain database is damaged")
    }

    @Test func composedReasonsTranslatePieceByPiece() {
        let joined = Reason.joined([
            "no item of class \("genp") in the caller's groups matches the query",
            "\(3) more nearby item(s) not shown",
        ])
        #expect(
            joined.english == "no item of class genp in the caller's groups matches the query; "
                + "3 more nearby item(s) not shown")
        #expect(
            joined.text(in: .japanese) == "呼び出し元のグループに、クエリに一致するクラス genp の項目はありません。"
                + "ほかに近い項目が 3 件あります（表示していません）")
        #expect(
            AuthenticationFailure.biometryLockout.keychainError.localizedReason(in: .japanese)
                == "項目にはユーザ認証が必要ですが、認証に失敗しました: 失敗が続いたため生体認証がロックされています")
        let status = Reason("KEYCHAIN_ENTITLEMENTS: \(Reason(statusMessage: SecurityStatus.param))")
        #expect(status.english == "KEYCHAIN_ENTITLEMENTS: One or more parameters passed to a function were not valid.")
        #expect(status.text(in: .japanese) == "KEYCHAIN_ENTITLEMENTS: 関数に渡したパラメータに無効なものがあります。")
    }

    @Test func keychainErrorKeepsItsEnglishReasonAndOffersTheLocalizedOne() {
        let error = KeychainError.param.because("a passcode cannot be empty")
        #expect(error.reason == "a passcode cannot be empty")
        #expect(error.localizedReason(in: .english) == "a passcode cannot be empty")
        #expect(error.localizedReason(in: .japanese) == "パスコードは空にできません")
        #expect(
            "\(error)" == "One or more parameters passed to a function were not valid. (OSStatus -50): "
                + "a passcode cannot be empty")
        #expect(KeychainError.param.reason == nil && KeychainError.param.localizedReason(in: .japanese) == nil)
        // Errors compare by status, as `#expect(throws:)` and `catch` patterns rely on; the reasons differ.
        #expect(error == KeychainError.param)
        #expect(error.explanation != KeychainError.param.because("the query names no class (kSecClass)").explanation)
    }

    @Test func aFailingAddExplainsItselfInJapanese() throws {
        let keychain = try makeKeychain()
        let item = NewItem(
            itemClass: .genericPassword, attributes: [.service: .string("s"), .account: .string("a")],
            data: Array("secret".utf8))
        try keychain.add(item)
        let error = try #require(throws: KeychainError.self) { try keychain.add(item) }
        #expect(error.status == SecurityStatus.duplicateItem)
        #expect(error.reason?.hasPrefix("an item with the same primary key exists (acct=\"a\", svce=\"s\"") == true)
        let japanese = try #require(error.localizedReason(in: .japanese))
        #expect(japanese.hasPrefix("同じ主キーの項目がすでにあります（acct=\"a\", svce=\"s\""))
        #expect(japanese.hasSuffix("）。変更するには SecItemUpdate を使ってください"))
        #expect(!japanese.contains("secret"))

        let missing = try #require(throws: KeychainError.self) {
            try keychain.copyMatching(.genericPassword(service: "S", account: "a"))
        }
        let explained = try #require(missing.localizedReason(in: .japanese))
        #expect(explained.hasPrefix("呼び出し元のグループに、クエリに一致するクラス genp の項目はありません。最も近い項目（"))
        #expect(explained.contains("svce は大文字と小文字だけが違います（項目は \"s\"、クエリは \"S\"）"))
    }

    @Test func aLockedClassExplainsItselfPieceByPieceInJapanese() throws {
        var configuration = KeychainConfiguration(
            home: temporaryHome(), identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]))
        configuration.passcodeDerivationTarget = 0.002
        let keychain = try Keychain(configuration: configuration)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(Secret(Array("1234".utf8)))
        try keychain.setGracePeriod(0)
        try keychain.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.account: .string("a")], accessibility: .whenUnlocked,
                data: Array("x".utf8)))
        try keychain.lock()
        let error = try #require(throws: KeychainError.self) {
            try keychain.copyMatching(
                ItemQuery(
                    itemClass: .genericPassword, attributes: [.account: .string("a")], returns: .data))
        }
        #expect(error.status == SecurityStatus.interactionNotAllowed)
        #expect(
            error.reason?.contains("the keychain is locked; items of class ak (available only while unlocked)")
                == true)
        let japanese = try #require(error.localizedReason(in: .japanese))
        #expect(japanese.contains("キーチェーンはロック中です。保護クラス ak（ロック解除中だけ使用可）の項目は"))
        #expect(japanese.contains("対処: バックグラウンドやロック中に読む項目には kSecAttrAccessibleAfterFirstUnlock"))
        #expect(japanese.hasSuffix("このエラーで項目を削除しないでください。項目は無事で、ロック解除後にまた読み出せます"))
    }

    /// The modules whose reasons are scanned: the engine, its request boundary, the Security and
    /// LocalAuthentication faces and the `security` command.
    private static let modules = ["KeychainCore", "KeychainRequests", "Security", "LocalAuthentication", "SecurityCLI"]

    /// Every template the scanned modules write has a Japanese wording, found by reading the sources, so a new
    /// reason without a translation fails here.
    @Test func everyReasonTemplateOfTheSourcesHasAJapaneseWording() throws {
        var templates: Set<String> = []
        for module in Self.modules {
            let directory = Self.repository.appendingPathComponent("Sources").appendingPathComponent(module)
            templates.formUnion(try ReasonTemplateScanner.templates(under: directory))
        }
        #expect(templates.count > 100)
        #expect(templates.contains("{0} has a value of the wrong type"))
        #expect(templates.contains("the kernel keyring refused the class keys: {0}"))
        // A template of placeholders and punctuation only ("{0}", "{0}{1}") reads the same in every language.
        let words = templates.filter { $0.contains { $0.isLetter } }
        let missing = words.subtracting(ReasonMessages.japaneseTemplates).sorted()
        #expect(missing.isEmpty, "templates without a Japanese wording: \(missing)")
    }

    /// The catalog holds no stale or repeated templates, and each wording places every argument of its template.
    @Test func theJapaneseCatalogMatchesTheTemplates() throws {
        var written: Set<String> = []
        for module in Self.modules {
            let directory = Self.repository.appendingPathComponent("Sources").appendingPathComponent(module)
            written.formUnion(try ReasonTemplateScanner.templates(under: directory))
        }
        let stale = ReasonMessages.japaneseTemplates.filter { template in
            !written.contains(template) && template.contains { $0.isLetter }
        }
        #expect(stale.isEmpty, "catalog entries no source writes: \(stale.sorted())")
        #expect(ReasonMessages.japaneseWordings.count == ReasonMessages.japanese.count)
        let marker = /\{[0-9]+\}/
        for (english, japanese) in ReasonMessages.japanese {
            let expected = english.matches(of: marker).map { String($0.output) }.sorted()
            let placed = japanese.matches(of: marker).map { String($0.output) }.sorted()
            #expect(placed == expected, "\(english)")
        }
    }

    @Test func fillPlacesArgumentsByNumberAndKeepsBracesWithoutOne() {
        #expect(ReasonMessages.fill("{1} の代わりに {0}", with: ["a", "b"]) == "b の代わりに a")
        #expect(ReasonMessages.fill("{2} {x} {", with: ["a"]) == "{2} {x} {")
    }
}
