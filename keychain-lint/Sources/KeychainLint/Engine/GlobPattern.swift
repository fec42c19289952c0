/// A path glob: `*` matches within one path component, `**` across components, `?` one character.
struct GlobPattern {
    private let pattern: [Character]

    init(_ pattern: String) {
        var text = pattern
        // A trailing slash means "this directory and everything in it".
        if text.hasSuffix("/") { text += "**" }
        self.pattern = Array(text)
    }

    func matches(_ path: String) -> Bool {
        let candidate = Array(path)
        // A pattern without a slash applies at any depth, as in .gitignore.
        if !pattern.contains("/") {
            return Self.match(pattern[...], candidate[...])
                || Self.match(Array("**/".appending(String(pattern)))[...], candidate[...])
        }
        return Self.match(pattern[...], candidate[...])
    }

    private static func match(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == "*" {
            let rest = pattern.dropFirst()
            if rest.first == "*" {
                var after = rest.dropFirst()
                if after.first == "/" { after = after.dropFirst() }
                // `**/` matches zero or more whole components.
                var index = text.startIndex
                while true {
                    if match(after, text[index...]) { return true }
                    guard index < text.endIndex else { return false }
                    index += 1
                }
            }
            var index = text.startIndex
            while true {
                if match(rest, text[index...]) { return true }
                guard index < text.endIndex, text[index] != "/" else { return false }
                index += 1
            }
        }
        guard let head = text.first else { return false }
        if first == "?" ? head != "/" : first == head {
            return match(pattern.dropFirst(), text.dropFirst())
        }
        return false
    }
}
