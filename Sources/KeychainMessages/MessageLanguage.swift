/// The language of the texts this package shows people: English, or Japanese when the user's locale asks for it.
/// Statuses, exit codes and machine-readable output never depend on it.
public enum MessageLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case japanese = "ja"

    /// The language the locale variables ask for, read as POSIX `setlocale` does for messages: the first of
    /// `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty decides. `ja`, `ja_JP`, `ja_JP.UTF-8` and
    /// the like mean Japanese; anything else (`C`, `POSIX`, `en_US.UTF-8`, a language without a catalog) English.
    /// - Parameter variable: looks up one environment variable.
    public static func fromLocale(_ variable: (String) -> String?) -> MessageLanguage {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = variable(name), !value.isEmpty else { continue }
            return forLocaleName(value)
        }
        return .english
    }

    /// The language of one locale name (`ja_JP.UTF-8`, `en_US`, `C`).
    public static func forLocaleName(_ name: String) -> MessageLanguage {
        let language = name.prefix { $0 != "_" && $0 != "." && $0 != "@" && $0 != "-" }
        return language.lowercased() == "ja" ? .japanese : .english
    }
}
