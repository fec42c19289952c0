/// The line `security -v` prints before running a verb, as macOS does (security.c): the verb, then each argument
/// in double quotes. A secret given on the command line shows as `(hidden)`, unquoted, never as typed.
enum VerbEcho {
    static func words(_ verb: SecurityVerb, _ arguments: [String]) -> String {
        let secretLetters = secretOptions(verb)
        let valued = verb.options.valued
        var words = [verb.rawValue]
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            // Every word that looks like options is read as options, wherever it is (the certificate verbs take
            // options after their file): hiding a word too many is harmless, showing a secret is not.
            let letters = word.dropFirst()
            guard word.hasPrefix("-"), !word.hasPrefix("--"),
                let valuedLetter = letters.firstIndex(where: { valued.contains($0) })
            else {
                words.append(quoted(word))
                continue
            }
            // The letters up to the first valued one are flags; what follows it, or the next word, is its value.
            let valueStart = letters.index(after: valuedLetter)
            let isSecret = secretLetters.contains(letters[valuedLetter])
            if valueStart < word.endIndex {
                words.append(isSecret ? quoted(word[..<valueStart]) + " (hidden)" : quoted(word))
            } else {
                words.append(quoted(word))
                if index < arguments.count {
                    words.append(isSecret ? "(hidden)" : quoted(arguments[index]))
                    index += 1
                }
            }
        }
        return words.joined(separator: " ")
    }

    private static func quoted(_ word: some StringProtocol) -> String { "\"\(word)\"" }

    /// The options whose value is a password or passphrase.
    private static func secretOptions(_ verb: SecurityVerb) -> Set<Character> {
        switch verb {
        case .addGenericPassword: ["w", "p", "X"]
        case .addInternetPassword: ["w", "X"]
        case .unlockKeychain, .backupKeychain, .restoreKeychain: ["p"]
        case .setKeychainPassword: ["o", "p"]
        case .importItems, .exportItems: ["P"]
        default: []
        }
    }
}
