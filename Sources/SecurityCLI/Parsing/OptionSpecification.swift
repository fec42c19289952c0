import KeychainMessages

/// The single-letter options of one verb, as a `getopt` option string would declare them.
struct OptionSpecification: Sendable {
    /// Options that take a value (`-a alice` or `-aalice`).
    let valued: Set<Character>
    /// Options that take no value and may be bundled (`-gU`).
    let flags: Set<Character>
    /// Valued options that, as the last argument with no value, ask for the value instead (macOS's `-w`).
    let promptsWhenLast: Set<Character>
    /// Long flags of this project's own (`--json`, `--remove`), written without the dashes; macOS has none.
    let longFlags: Set<String>

    init(valued: String, flags: String, promptsWhenLast: String = "", longFlags: Set<String> = []) {
        self.valued = Set(valued)
        self.flags = Set(flags)
        self.promptsWhenLast = Set(promptsWhenLast)
        self.longFlags = longFlags
    }
}

/// One option as it appeared on the command line.
struct ScannedOption: Equatable, Sendable {
    /// The option's letter; `-` for a long flag.
    let letter: Character
    /// The option's value; nil for a flag, or for a prompting option given last without a value.
    let value: String?
    /// A long flag's name without the dashes (`json`); nil for a single-letter option.
    var longName: String? = nil
}

/// Splits a verb's arguments into options and operands the way `getopt` does: options end at the first
/// operand or at `--`; a valued option takes the rest of its word or the next word.
struct OptionScanner {
    let specification: OptionSpecification
    let verb: SecurityVerb

    /// - Returns: the options in order, and the operands that follow them.
    /// - Throws: `UsageError` for an unknown option or a missing value.
    func scan(_ arguments: [String]) throws(UsageError) -> (options: [ScannedOption], operands: [String]) {
        var options: [ScannedOption] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" {
                index += 1
                break
            }
            guard word.hasPrefix("-"), word.count > 1 else { break }
            if word.hasPrefix("--") {
                let name = String(word.dropFirst(2))
                guard specification.longFlags.contains(name) else {
                    throw UsageError(.illegalOption(word), verb: verb)
                }
                options.append(ScannedOption(letter: "-", value: nil, longName: name))
                index += 1
                continue
            }
            var letters = word.dropFirst()
            while let letter = letters.first {
                letters = letters.dropFirst()
                if specification.flags.contains(letter) {
                    options.append(ScannedOption(letter: letter, value: nil))
                } else if specification.valued.contains(letter) {
                    if !letters.isEmpty {
                        options.append(ScannedOption(letter: letter, value: String(letters)))
                    } else if index + 1 < arguments.count {
                        index += 1
                        options.append(ScannedOption(letter: letter, value: arguments[index]))
                    } else if specification.promptsWhenLast.contains(letter) {
                        options.append(ScannedOption(letter: letter, value: nil))
                    } else {
                        throw UsageError(.missingArgument("-- \(letter)"), verb: verb)
                    }
                    break
                } else {
                    throw UsageError(.illegalOption("-- \(letter)"), verb: verb)
                }
            }
            index += 1
        }
        return (options, Array(arguments[index...]))
    }
}
