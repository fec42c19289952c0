import Foundation

/// Finds the reason templates written in Swift sources, as `KeychainError.Reason` records them: every string
/// literal given to `because(`, `Reason(`, `reason:`, `base:`, `because:` or `detail:`, literals joined by `+`
/// read as one (as `Reason.+` joins them), with `{0}`, `{1}`, … for the interpolations. Comments and other
/// string literals are skipped, so a trigger word inside them does not count.
struct ReasonTemplateScanner {
    private let characters: [Character]

    init(_ source: String) { characters = Array(source) }

    /// The templates of every `.swift` file under `directory`.
    static func templates(under directory: URL) throws -> Set<String> {
        var found: Set<String> = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            found.formUnion(ReasonTemplateScanner(try String(contentsOf: file, encoding: .utf8)).templates())
        }
        return found
    }

    func templates() -> Set<String> {
        var found: Set<String> = []
        var index = 0
        while index < characters.count {
            if starts(with: "//", at: index) {
                index = endOfLine(from: index)
            } else if characters[index] == "\"" {
                index = literal(at: index)?.end ?? index + 1
            } else if let open = parenthesisTrigger(at: index) {
                found.formUnion(runs(inParenthesesAt: open))
                index = open + 1
            } else if let value = labelTrigger(at: index) {
                var start = value
                while start < characters.count, characters[start] == " " { start += 1 }
                if start < characters.count, characters[start] == "\"", let run = run(at: start) {
                    found.insert(run.template)
                }
                index = value
            } else {
                index += 1
            }
        }
        return found
    }

    // MARK: - Triggers

    /// The index of `(` after `.because(` or `Reason(`, unless a label says the argument is not a template.
    private func parenthesisTrigger(at index: Int) -> Int? {
        for word in [".because(", "Reason("] where starts(with: word, at: index) {
            guard word.first == "." || isWordStart(index) else { continue }
            let open = index + word.count - 1
            if starts(with: "verbatim:", at: open + 1) || starts(with: "statusMessage:", at: open + 1) { return nil }
            return open
        }
        return nil
    }

    /// The index after `reason:`, `base:`, `because:` or `detail:`.
    private func labelTrigger(at index: Int) -> Int? {
        let labels = ["reason:", "base:", "because:", "detail:"]
        for word in labels where starts(with: word, at: index) && isWordStart(index) {
            return index + word.count
        }
        return nil
    }

    private func isWordStart(_ index: Int) -> Bool {
        index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber)
    }

    // MARK: - Literals

    /// The templates of the literal runs between the parenthesis at `open` and its match.
    private func runs(inParenthesesAt open: Int) -> Set<String> {
        var found: Set<String> = []
        var depth = 0
        var index = open
        while index < characters.count {
            if starts(with: "//", at: index) {
                index = endOfLine(from: index)
                continue
            }
            switch characters[index] {
            case "\"":
                guard let run = run(at: index) else { return found }
                found.insert(run.template)
                index = run.end
                continue
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return found }
            default: break
            }
            index += 1
        }
        return found
    }

    /// Literals joined by `+` from `index`: their template and the index after the last.
    private func run(at index: Int) -> (template: String, end: Int)? {
        guard var current = literal(at: index) else { return nil }
        var pieces = current.pieces
        while true {
            var next = current.end
            while next < characters.count, characters[next].isWhitespace { next += 1 }
            guard next < characters.count, characters[next] == "+" else { break }
            next += 1
            while next < characters.count, characters[next].isWhitespace { next += 1 }
            guard next < characters.count, characters[next] == "\"", let following = literal(at: next) else { break }
            pieces[pieces.count - 1] += following.pieces[0]
            pieces += following.pieces.dropFirst()
            current = following
        }
        var template = pieces[0]
        for (number, piece) in pieces.dropFirst().enumerated() { template += "{\(number)}" + piece }
        return (template, current.end)
    }

    /// One single-line string literal at `index`: its text between interpolations, and the index after it.
    private func literal(at index: Int) -> (pieces: [String], end: Int)? {
        guard characters[index] == "\"", !starts(with: "\"\"\"", at: index) else { return nil }
        var pieces = [""]
        var position = index + 1
        while position < characters.count {
            let character = characters[position]
            if character == "\"" { return (pieces, position + 1) }
            if character == "\n" { return nil }
            guard character == "\\", position + 1 < characters.count else {
                pieces[pieces.count - 1].append(character)
                position += 1
                continue
            }
            let escaped = characters[position + 1]
            switch escaped {
            case "(":
                position = endOfInterpolation(from: position + 1)
                pieces.append("")
            case "u":
                guard let close = characters[position...].firstIndex(of: "}"),
                    let value = UInt32(String(characters[(position + 3)..<close]), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else { return nil }
                pieces[pieces.count - 1].unicodeScalars.append(scalar)
                position = close + 1
            default:
                let table: [Character: Character] = ["n": "\n", "t": "\t", "0": "\0", "r": "\r"]
                pieces[pieces.count - 1].append(table[escaped] ?? escaped)
                position += 2
            }
        }
        return nil
    }

    /// The index after the `)` that closes the interpolation whose `(` is at `open`.
    private func endOfInterpolation(from open: Int) -> Int {
        var depth = 0
        var index = open
        while index < characters.count {
            switch characters[index] {
            case "\"":
                index = literal(at: index)?.end ?? index + 1
                continue
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
            index += 1
        }
        return index
    }

    private func starts(with text: String, at index: Int) -> Bool {
        var position = index
        for character in text {
            guard position < characters.count, characters[position] == character else { return false }
            position += 1
        }
        return true
    }

    private func endOfLine(from index: Int) -> Int {
        var position = index
        while position < characters.count, characters[position] != "\n" { position += 1 }
        return position
    }
}
