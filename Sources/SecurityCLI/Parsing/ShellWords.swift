import KeychainMessages

/// Splits one line of `security -i` input into words as a shell would, without expanding anything:
/// whitespace separates words; '…' quotes literally; "…" quotes with `\"` and `\\` escapes; a backslash
/// outside quotes escapes the next character; `#` at the start of a word begins a comment.
package enum ShellWords {
    /// - Returns: the words of `line`.
    /// - Throws: `UsageError` for an unterminated quote.
    package static func split(_ line: String) throws(UsageError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t", "\r", "\n":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case "#" where !inWord:
                return words
            case "'":
                inWord = true
                while true {
                    guard let next = characters.next() else { throw UsageError(.unterminatedQuote("'")) }
                    if next == "'" { break }
                    current.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard let next = characters.next() else { throw UsageError(.unterminatedQuote("\"")) }
                    if next == "\"" { break }
                    if next == "\\", let escaped = characters.next() {
                        if escaped != "\"" && escaped != "\\" { current.append("\\") }
                        current.append(escaped)
                    } else {
                        current.append(next)
                    }
                }
            case "\\":
                inWord = true
                if let escaped = characters.next() { current.append(escaped) }
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
