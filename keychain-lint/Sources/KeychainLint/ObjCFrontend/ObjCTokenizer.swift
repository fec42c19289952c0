/// One Objective-C token. Comments and preprocessor lines never become tokens, so they cannot trigger rules.
struct ObjCToken {
    enum Kind: Equatable {
        case identifier
        case number
        /// A C string; `text` holds its contents.
        case string
        /// An `@"..."` string; `text` holds its contents.
        case objcString
        case character
        /// `@interface`, `@YES`, `@try`...; `text` holds the word after `@`.
        case atKeyword
        case punctuation
    }

    var kind: Kind
    var text: String
    var position: SourcePosition
    var endOffset: Int

    func isPunctuation(_ value: String) -> Bool { kind == .punctuation && text == value }
    func isIdentifier(_ value: String) -> Bool { kind == .identifier && text == value }
}

/// Splits Objective-C source into tokens and collects `#import`/`#include` lines.
struct ObjCTokenizer {
    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var lineStart = 0
    private(set) var tokens: [ObjCToken] = []
    private(set) var imports: [ImportDecl] = []

    private static let threeCharacterPunctuation: Set<String> = ["...", "<<=", ">>="]
    private static let twoCharacterPunctuation: Set<String> = [
        "->", "++", "--", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
        "^=", "@{", "@[", "@(",
    ]

    init(source: String) {
        bytes = Array(source.utf8)
        tokenize()
    }

    private var position: SourcePosition {
        SourcePosition(line: line, column: offset - lineStart + 1, offset: offset)
    }

    private func peek(_ distance: Int = 0) -> UInt8 {
        offset + distance < bytes.count ? bytes[offset + distance] : 0
    }

    private mutating func advance() {
        if bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        offset += 1
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x5F || byte == 0x24 || byte >= 0x80
    }

    private mutating func tokenize() {
        var atLineStart = true
        while offset < bytes.count {
            let byte = peek()
            if byte == 0x0A {
                atLineStart = true
                advance()
                continue
            }
            if byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0C {
                advance()
                continue
            }
            if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while offset < bytes.count, peek() != 0x0A { advance() }
                continue
            }
            if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                advance()
                advance()
                while offset < bytes.count, !(peek() == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) { advance() }
                if offset < bytes.count {
                    advance()
                    advance()
                }
                continue
            }
            if byte == UInt8(ascii: "#"), atLineStart {
                readDirective()
                continue
            }
            atLineStart = false
            readToken()
        }
    }

    /// A preprocessor line, with backslash continuations. Only imports are kept.
    private mutating func readDirective() {
        let start = position
        var text: [UInt8] = []
        while offset < bytes.count, peek() != 0x0A {
            if peek() == UInt8(ascii: "\\"), peek(1) == 0x0A {
                advance()
                advance()
                continue
            }
            if peek() == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") { break }
            text.append(peek())
            advance()
        }
        let directive = String(decoding: text, as: UTF8.self)
        let words = directive.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" })
        if words.count >= 2, words[0] == "if", words[1] == "0" || words[1] == "false" {
            skipDeadBranch()
            return
        }
        guard let keyword = words.first, keyword == "import" || keyword == "include", words.count > 1 else { return }
        let target = words[1].trimmingCharacters(in: ["<", ">", "\""])
        let framework = target.split(separator: "/").first.map(String.init) ?? target
        imports.append(ImportDecl(name: framework, position: start))
    }

    /// Skips the lines of an `#if 0` clause up to its `#else`, `#elif` or `#endif`, nested conditionals included:
    /// that code is never compiled, often an old implementation kept for reference.
    private mutating func skipDeadBranch() {
        var depth = 0
        while offset < bytes.count {
            // At a line start: read the directive's keyword, if the line is one.
            while offset < bytes.count, peek() == 0x20 || peek() == 0x09 { advance() }
            if peek() == UInt8(ascii: "#") {
                advance()
                while offset < bytes.count, peek() == 0x20 || peek() == 0x09 { advance() }
                let begin = offset
                while offset < bytes.count, Self.isIdentifierByte(peek()) { advance() }
                let keyword = String(decoding: bytes[begin..<offset], as: UTF8.self)
                if keyword.hasPrefix("if") {
                    depth += 1
                } else if keyword == "endif" {
                    if depth == 0 {
                        skipLine()
                        return
                    }
                    depth -= 1
                } else if depth == 0, keyword == "else" || keyword == "elif" {
                    // `#elif` opens a clause whose condition is read as compiled, as any other is.
                    skipLine()
                    return
                }
            }
            skipLine()
        }
    }

    private mutating func skipLine() {
        while offset < bytes.count, peek() != 0x0A { advance() }
        if offset < bytes.count { advance() }
    }

    private mutating func readToken() {
        let start = position
        let byte = peek()
        if Self.isIdentifierByte(byte) && !(byte >= 0x30 && byte <= 0x39) {
            let begin = offset
            while offset < bytes.count, Self.isIdentifierByte(peek()) { advance() }
            append(.identifier, String(decoding: bytes[begin..<offset], as: UTF8.self), start)
            return
        }
        if byte >= 0x30 && byte <= 0x39 || (byte == UInt8(ascii: ".") && peek(1) >= 0x30 && peek(1) <= 0x39) {
            let begin = offset
            while offset < bytes.count, Self.isIdentifierByte(peek()) || peek() == UInt8(ascii: ".") { advance() }
            append(.number, String(decoding: bytes[begin..<offset], as: UTF8.self), start)
            return
        }
        if byte == UInt8(ascii: "\"") {
            append(.string, readQuoted(), start)
            return
        }
        if byte == UInt8(ascii: "'") {
            _ = readQuoted()
            append(.character, "", start)
            return
        }
        if byte == UInt8(ascii: "@") {
            if peek(1) == UInt8(ascii: "\"") {
                advance()
                append(.objcString, readQuoted(), start)
                return
            }
            if Self.isIdentifierByte(peek(1)) && !(peek(1) >= 0x30 && peek(1) <= 0x39) {
                advance()
                let begin = offset
                while offset < bytes.count, Self.isIdentifierByte(peek()) { advance() }
                append(.atKeyword, String(decoding: bytes[begin..<offset], as: UTF8.self), start)
                return
            }
            if peek(1) >= 0x30 && peek(1) <= 0x39 {
                advance()
                let begin = offset
                while offset < bytes.count, Self.isIdentifierByte(peek()) || peek() == UInt8(ascii: ".") { advance() }
                append(.number, String(decoding: bytes[begin..<offset], as: UTF8.self), start)
                return
            }
        }
        for length in [3, 2] where offset + length <= bytes.count {
            let candidate = String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
            let known = length == 3 ? Self.threeCharacterPunctuation : Self.twoCharacterPunctuation
            if known.contains(candidate) {
                for _ in 0..<length { advance() }
                append(.punctuation, candidate, start)
                return
            }
        }
        advance()
        append(.punctuation, String(UnicodeScalar(byte)), start)
    }

    /// Reads a quoted literal starting at the opening quote and returns its contents with escapes resolved.
    private mutating func readQuoted() -> String {
        let quote = peek()
        advance()
        var contents: [UInt8] = []
        while offset < bytes.count, peek() != quote, peek() != 0x0A {
            if peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count {
                advance()
                let escaped = peek()
                switch escaped {
                case UInt8(ascii: "n"): contents.append(0x0A)
                case UInt8(ascii: "t"): contents.append(0x09)
                default: contents.append(escaped)
                }
                advance()
                continue
            }
            contents.append(peek())
            advance()
        }
        if offset < bytes.count, peek() == quote { advance() }
        return String(decoding: contents, as: UTF8.self)
    }

    private mutating func append(_ kind: ObjCToken.Kind, _ text: String, _ start: SourcePosition) {
        tokens.append(ObjCToken(kind: kind, text: text, position: start, endOffset: offset))
    }
}
