/// Measures, before parsing, how deeply a Swift file nests brackets inside expressions.
///
/// SwiftParser's time doubles with each array literal or closure nested in an expression (`[[[[1]]]]`,
/// `VStack { VStack { ... } }`): 16 levels take a fraction of a second, 20 several seconds, 200 never finish, and
/// 20,000 overflow the stack. Parentheses and statement bodies at the top of a declaration cost nothing extra, so
/// they are not counted; comments and string literals are skipped, as cheaply as a byte scan allows.
enum SwiftNestingScan {
    /// The deepest expression nesting the analyzer parses; measured in docs/keychain-lint.md ("Limits").
    static let maximumDepth = 16

    /// Words that open a statement or declaration body with `{`, which SwiftParser never backtracks over.
    private static let bodyWords: Set<[UInt8]> = Set(
        [
            "if", "guard", "for", "while", "switch", "else", "do", "catch", "repeat", "defer", "func", "init", "deinit",
            "class", "struct", "enum", "extension", "protocol", "actor", "subscript", "get", "set", "willSet", "didSet",
            "var", "case", "default", "import", "typealias",
        ].map { Array($0.utf8) })

    /// The deepest count of `[` and closure `{` open at once, or nil as soon as it passes `limit`.
    static func depth(of source: String, limit: Int = maximumDepth) -> Int? {
        var scanner = Scanner(bytes: Array(source.utf8))
        return scanner.run(limit: limit)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var offset = 0
        /// Open brackets; true for those that count (an array or a closure inside an expression).
        var open: [Bool] = []
        var counted = 0
        /// Open parentheses among `open`: a multi-line signature or call keeps its words across lines.
        var parentheses = 0
        var innermostIsParenthesis = false
        /// Words since the last `{`, `}`, `;` or line end outside parentheses: they tell a body from a closure.
        var statementWords: [Range<Int>] = []
        var sawAssignment = false

        init(bytes: [UInt8]) { self.bytes = bytes }

        func at(_ distance: Int) -> UInt8 { offset + distance < bytes.count ? bytes[offset + distance] : 0 }

        mutating func run(limit: Int) -> Int? {
            var deepest = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                switch byte {
                case UInt8(ascii: "/") where at(1) == UInt8(ascii: "/"):
                    while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
                case UInt8(ascii: "/") where at(1) == UInt8(ascii: "*"):
                    skipBlockComment()
                case UInt8(ascii: "\""):
                    skipString()
                case UInt8(ascii: "#") where isRawStringStart():
                    skipString()
                case UInt8(ascii: "("):
                    open.append(false)
                    parentheses += 1
                    innermostIsParenthesis = true
                    offset += 1
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    let counts = byte == UInt8(ascii: "[") || !isBody()
                    open.append(counts)
                    innermostIsParenthesis = false
                    if counts { counted += 1 }
                    deepest = max(deepest, counted)
                    if deepest > limit { return nil }
                    if byte == UInt8(ascii: "{") { resetStatement() }
                    offset += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if let last = open.popLast(), last { counted -= 1 }
                    if byte == UInt8(ascii: ")") { parentheses = max(0, parentheses - 1) }
                    // Only a parenthesis is pushed with `false` and no count change; a body brace is also `false`,
                    // so the innermost kind is tracked apart, approximately, after a close.
                    innermostIsParenthesis = parentheses > 0 && open.last == false
                    if byte == UInt8(ascii: "}") { resetStatement() }
                    offset += 1
                case UInt8(ascii: ";"):
                    resetStatement()
                    offset += 1
                case 0x0A:
                    if !innermostIsParenthesis { resetStatement() }
                    offset += 1
                case UInt8(ascii: "="):
                    let previous = offset > 0 ? bytes[offset - 1] : 0
                    if at(1) != UInt8(ascii: "="), !"=!<>".utf8.contains(previous) { sawAssignment = true }
                    offset += 1
                default:
                    if isWordByte(byte) { readWord() } else { offset += 1 }
                }
            }
            return deepest
        }

        /// A `{` that opens a body rather than a closure: only at the top of declarations and statements, since
        /// inside an expression even an `if` body makes the parser's work double.
        func isBody() -> Bool {
            guard counted == 0, parentheses == 0 else { return false }
            let words = statementWords.map { Array(bytes[$0]) }
            if sawAssignment && words.contains(Array("var".utf8)) { return false }
            return words.contains(where: SwiftNestingScan.bodyWords.contains)
        }

        mutating func resetStatement() {
            statementWords.removeAll(keepingCapacity: true)
            sawAssignment = false
        }

        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x5F || byte >= 0x80
        }

        mutating func readWord() {
            let start = offset
            while offset < bytes.count, isWordByte(bytes[offset]) { offset += 1 }
            // Only short words can be keywords; the words are read only when a `{` needs them.
            if offset - start <= 9, statementWords.count < 64 { statementWords.append(start..<offset) }
        }

        func isRawStringStart() -> Bool {
            var scan = offset
            while scan < bytes.count, bytes[scan] == UInt8(ascii: "#") { scan += 1 }
            return scan < bytes.count && bytes[scan] == UInt8(ascii: "\"")
        }

        /// Swift block comments nest.
        mutating func skipBlockComment() {
            var depth = 0
            while offset < bytes.count {
                if bytes[offset] == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
                    depth += 1
                    offset += 2
                } else if bytes[offset] == UInt8(ascii: "*"), at(1) == UInt8(ascii: "/") {
                    depth -= 1
                    offset += 2
                    if depth == 0 { return }
                } else {
                    offset += 1
                }
            }
        }

        /// `"..."`, `"""..."""` and `#"..."#`; an interpolation's brackets are skipped with the string, which can
        /// only make the count lower.
        mutating func skipString() {
            var hashes = 0
            while at(0) == UInt8(ascii: "#") {
                hashes += 1
                offset += 1
            }
            let multiline = at(0) == UInt8(ascii: "\"") && at(1) == UInt8(ascii: "\"") && at(2) == UInt8(ascii: "\"")
            offset += multiline ? 3 : 1
            var interpolation = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\\"), hashes == 0 || matchesHashes(hashes, from: offset + 1) {
                    offset += 1 + hashes
                    if at(0) == UInt8(ascii: "(") { interpolation += 1 }
                    offset += 1
                    continue
                }
                if interpolation > 0 {
                    if byte == UInt8(ascii: "(") { interpolation += 1 }
                    if byte == UInt8(ascii: ")") { interpolation -= 1 }
                    // A string inside an interpolation: skip it whole so its quote does not end ours.
                    if byte == UInt8(ascii: "\"") {
                        offset += 1
                        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\""), bytes[offset] != 0x0A {
                            offset += bytes[offset] == UInt8(ascii: "\\") ? 2 : 1
                        }
                    }
                    offset += 1
                    continue
                }
                if byte == 0x0A, !multiline { return }
                if byte == UInt8(ascii: "\"") {
                    let closes =
                        multiline ? (at(1) == UInt8(ascii: "\"") && at(2) == UInt8(ascii: "\"")) : true
                    let quoteLength = multiline ? 3 : 1
                    if closes, matchesHashes(hashes, from: offset + quoteLength) {
                        offset += quoteLength + hashes
                        return
                    }
                }
                offset += 1
            }
        }

        func matchesHashes(_ count: Int, from start: Int) -> Bool {
            guard start + count <= bytes.count else { return false }
            return (0..<count).allSatisfy { bytes[start + $0] == UInt8(ascii: "#") }
        }
    }
}
