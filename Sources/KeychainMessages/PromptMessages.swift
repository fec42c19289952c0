/// The text of the keychain's prompts, per language: who asks first, in words the keychain writes, then the
/// app's own reason. English is this project's wording; the Japanese texts are its own translations.
public enum PromptMessages {
    /// A prompt for a keychain item, or a key's use, that the app gave no reason for.
    public static func usingAnItem(asker: String?, in language: MessageLanguage) -> String {
        language == .japanese
            ? "\(asker ?? "プログラム") がキーチェーンの項目を使おうとしています。"
            : "\(asker ?? "A program") wants to use an item in your keychain."
    }

    /// An authentication the app asked for (`LAContext.evaluatePolicy`) without a reason.
    public static func authenticating(asker: String?, in language: MessageLanguage) -> String {
        language == .japanese
            ? "\(asker ?? "プログラム") が認証を求めています。"
            : "\(asker ?? "A program") asks you to authenticate."
    }

    /// Any prompt with the app's reason: the asker, then the reason.
    public static func asking(asker: String?, reason: String, in language: MessageLanguage) -> String {
        language == .japanese
            ? "\(asker ?? "プログラム") からの要求: \(reason)"
            : "\(asker ?? "A program") asks: \(reason)"
    }

    /// keychaind's owner-rights claim: what the grant gives, then the client's reason, if any.
    public static func actingAsOwner(asker: String?, reason: String?, in language: MessageLanguage) -> String {
        let japanese = "\(asker ?? "プログラム") がキーチェーンの所有者として、すべてのアプリの項目を扱おうとしています。"
        let english = "\(asker ?? "A program") asks to act as your keychain's owner, over every app's items."
        guard let reason, !reason.isEmpty else { return language == .japanese ? japanese : english }
        return language == .japanese ? "\(japanese) 理由: \(reason)" : "\(english) Its reason: \(reason)"
    }
}
