/// The texts of `SecCopyErrorMessageString` and of the `security` command's message lines, per language.
///
/// English is Apple's text (SecBase.h), from the one status table, `SecurityStatus.message(for:)`. The Japanese
/// texts are this project's own translations. A code neither describes stays "OSStatus N" in every language
/// (SecBase.h describes errSecCoreFoundationUnknown, -4960, with no text).
public enum StatusMessages {
    /// The text for `status` in `language`.
    /// - Parameters:
    ///   - status: an `OSStatus`.
    ///   - english: the engine's English text for it ("OSStatus N" when the engine does not describe it).
    ///   - language: the language to answer in.
    public static func text(for status: Int32, english: String, in language: MessageLanguage) -> String {
        switch language {
        case .japanese: japanese[status] ?? secureTransportJapanese[status] ?? english
        case .english: english
        }
    }

    static let japanese: [Int32: String] = [
        0: "エラーはありません。",
        -4: "この関数または操作は実装されていません。",
        -34: "ディスクに空きがありません。",
        -36: "入出力エラーが起きました。",
        -50: "関数に渡したパラメータに無効なものがあります。",
        -61: "書き込み権限のエラーです。",
        -108: "メモリを確保できませんでした。",
        -128: "ユーザが操作をキャンセルしました。",
        -909: "パラメータが不正か、操作できない状態です。",
        -2070: "内部コンポーネントでエラーが起きました。",
        -25291: "使えるキーチェーンがありません。コンピュータの再起動が必要かもしれません。",
        -25292: "このキーチェーンは変更できません。",
        -25293: "入力したユーザ名またはパスフレーズが正しくありません。",
        -25294: "指定したキーチェーンが見つかりません。",
        -25295: "指定したキーチェーンは有効なキーチェーンファイルではありません。",
        -25296: "同じ名前のキーチェーンがすでにあります。",
        -25299: "指定した項目はすでにキーチェーンにあります。",
        -25300: "指定した項目がキーチェーンに見つかりません。",
        -25301: "指定した項目を扱うのに十分なメモリがありません。",
        -25302: "この項目の情報は大きすぎるか、表示できない形式です。",
        -25303: "指定した属性は存在しません。",
        -25304: "指定した項目はもう有効ではありません。キーチェーンから削除された可能性があります。",
        -25305: "現在のキーチェーンを検索できません。",
        -25306: "指定した項目は有効なキーチェーン項目ではないようです。",
        -25307: "デフォルトのキーチェーンが見つかりません。",
        -25308: "ユーザの操作を求めることは許可されていません。",
        -25309: "指定した属性は変更できません。",
        -25243: "指定した項目にはアクセス制御がありません。",
        -25244: "この項目の所有者を変更しようとしましたが、許可されていません。",
        -25316: "この項目の内容を取り出せません。",
        -25317: "この項目の内容は変更できません。",
        -26275: "渡されたデータをデコードできません。",
        -34018: "必要なエンタイトルメントがありません。",
        -67808: "暗号の検証に失敗しました。",
        -67843: "証明書は信頼されていません。",
    ]
}
