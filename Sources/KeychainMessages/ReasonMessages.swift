/// The wording of the keychain's reasons (`KeychainError`'s explanations, behind `KEYCHAIN_DEBUG=1` and the
/// `security` command's failures) per language, keyed by the English template: the English text with `{0}`,
/// `{1}`, … where its arguments go. A wording places the same markers where its language wants them. The
/// Japanese wordings are this project's own translations; a template without one is shown in English.
public enum ReasonMessages {
    /// The wording of `template` in `language`; nil for English and for a template `language` does not word.
    public static func wording(for template: String, in language: MessageLanguage) -> String? {
        switch language {
        case .english: nil
        case .japanese: japanese[template]
        }
    }

    /// Every English template the Japanese catalog words.
    public static var japaneseTemplates: Set<String> { Set(japanese.keys) }

    /// `wording` with each `{n}` replaced by `arguments[n]`; a marker without an argument stays as it is.
    public static func fill(_ wording: String, with arguments: [String]) -> String {
        var result = ""
        var rest = Substring(wording)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}"),
                let index = Int(rest[afterOpen..<close]), arguments.indices.contains(index)
            else {
                result.append("{")
                rest = rest[afterOpen...]
                continue
            }
            result += arguments[index]
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The Japanese wordings by template; a template worded twice keeps its first wording (a test keeps the
    /// catalog free of such repeats).
    static let japanese = [String: String](
        japaneseWordings.map { ($0.english, $0.japanese) }, uniquingKeysWith: { first, _ in first })

    /// Every Japanese wording: the engine's, then the Security face's and the `security` command's.
    static var japaneseWordings: [(english: String, japanese: String)] { japaneseEntries + japaneseFaceEntries }
}
