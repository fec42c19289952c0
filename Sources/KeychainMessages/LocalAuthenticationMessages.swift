/// The `localizedDescription` of each `LAError` code, per language. English is the text iOS gives for the code;
/// the Japanese texts are this project's own translations.
public enum LocalAuthenticationMessages {
    /// The description of the `LAError` code `code` in `language`; nil for a code LocalAuthentication does not
    /// define.
    public static func description(ofCode code: Int, in language: MessageLanguage) -> String? {
        guard let texts = table[code] else { return nil }
        return language == .japanese ? texts.japanese : texts.english
    }

    private static let table: [Int: (english: String, japanese: String)] = [
        -1: ("Application retry limit exceeded.", "認証の試行回数が上限に達しました。"),
        -2: ("Canceled by user.", "ユーザがキャンセルしました。"),
        -3: ("Fallback authentication mechanism selected.", "代わりの認証方法が選ばれました。"),
        -4: ("UI canceled by system.", "システムが認証画面を閉じました。"),
        -5: ("Passcode not set.", "パスコードが設定されていません。"),
        -6: ("Biometry is not available on this device.", "このデバイスでは生体認証を使えません。"),
        -7: ("No identities are enrolled.", "生体情報が登録されていません。"),
        -8: ("Biometry is locked out.", "生体認証はロックされています。"),
        -9: ("Invalidated by client.", "アプリが認証を取り消しました。"),
        -10: ("Context has been invalidated.", "この LAContext はすでに無効になっています。"),
        -11: ("Paired watch is not available.", "ペアリングしたウォッチを使えません。"),
        -12: ("Biometry accessory is not paired.", "生体認証アクセサリがペアリングされていません。"),
        -13: ("Biometry accessory is disconnected.", "生体認証アクセサリの接続が切れています。"),
        -14: ("Invalid dimensions of the embedded UI.", "埋め込み UI の寸法が正しくありません。"),
        -1004: ("User interaction is required.", "ユーザの操作が必要ですが、許可されていません。"),
    ]
}
