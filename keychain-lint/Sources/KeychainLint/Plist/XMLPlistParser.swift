/// Parses XML property lists (Info.plist, entitlements, privacy manifests) and keeps each node's line and column.
///
/// Only the plist vocabulary is understood; binary plists and malformed XML give `nil`.
package struct XMLPlistParser {
    private enum Token {
        case open(String, SourcePosition)
        case close(String)
        case empty(String, SourcePosition)
        case text(String)
    }

    private var tokens: [Token] = []
    private var index = 0

    package static func parse(_ text: String) -> PlistNode? {
        var parser = XMLPlistParser()
        guard parser.tokenize(Array(text.utf8)) else { return nil }
        while parser.index < parser.tokens.count {
            if case .open("plist", _) = parser.tokens[parser.index] {
                parser.index += 1
                return parser.parseValue()
            }
            parser.index += 1
        }
        return nil
    }

    private mutating func tokenize(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        var line = 1
        var lineStart = 0
        var textStart = 0
        func position(_ at: Int) -> SourcePosition {
            SourcePosition(line: line, column: at - lineStart + 1, offset: at)
        }
        func flushText(upTo end: Int) {
            guard end > textStart else { return }
            tokens.append(.text(Self.decodeEntities(String(decoding: bytes[textStart..<end], as: UTF8.self))))
        }
        func advanceLines(through end: Int) {
            for scan in offset..<min(end, bytes.count) where bytes[scan] == 0x0A {
                line += 1
                lineStart = scan + 1
            }
        }
        while offset < bytes.count {
            guard bytes[offset] == UInt8(ascii: "<") else {
                if bytes[offset] == 0x0A {
                    line += 1
                    lineStart = offset + 1
                }
                offset += 1
                continue
            }
            flushText(upTo: offset)
            let start = offset
            let terminator: [UInt8]
            if bytes[offset...].starts(with: Array("<!--".utf8)) {
                terminator = Array("-->".utf8)
            } else if bytes[offset...].starts(with: Array("<?".utf8)) {
                terminator = Array("?>".utf8)
            } else {
                terminator = [UInt8(ascii: ">")]
            }
            guard let end = Self.find(terminator, in: bytes, from: offset + 1) else { return false }
            let inner = String(decoding: bytes[(offset + 1)..<end], as: UTF8.self)
            let tagPosition = position(start)
            if !inner.hasPrefix("!") && !inner.hasPrefix("?") {
                let isClosing = inner.hasPrefix("/")
                let isEmpty = inner.hasSuffix("/")
                let body = inner.dropFirst(isClosing ? 1 : 0).dropLast(isEmpty ? 1 : 0)
                let name = String(body.prefix { $0 != " " && $0 != "\t" && $0 != "\n" })
                tokens.append(isClosing ? .close(name) : isEmpty ? .empty(name, tagPosition) : .open(name, tagPosition))
            }
            advanceLines(through: end + terminator.count)
            offset = end + terminator.count
            textStart = offset
        }
        return true
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = text
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            result = result.split(separator: entity, omittingEmptySubsequences: false).joined(separator: character)
        }
        return result
    }

    /// Skips whitespace text between elements.
    private mutating func skipText() {
        while index < tokens.count, case .text = tokens[index] { index += 1 }
    }

    private mutating func readText(until name: String) -> String {
        var text = ""
        while index < tokens.count {
            switch tokens[index] {
            case .text(let piece): text += piece
            case .close(let closing) where closing == name:
                index += 1
                return text
            default: break
            }
            index += 1
        }
        return text
    }

    private mutating func parseValue() -> PlistNode? {
        skipText()
        guard index < tokens.count else { return nil }
        let token = tokens[index]
        index += 1
        switch token {
        case .empty(let name, let position):
            switch name {
            case "true": return PlistNode(value: .boolean(true), position: position)
            case "false": return PlistNode(value: .boolean(false), position: position)
            case "dict": return PlistNode(value: .dictionary([]), position: position)
            case "array": return PlistNode(value: .array([]), position: position)
            case "string": return PlistNode(value: .string(""), position: position)
            default: return PlistNode(value: .data, position: position)
            }
        case .open(let name, let position):
            switch name {
            case "dict": return PlistNode(value: .dictionary(parseEntries()), position: position)
            case "array":
                var elements: [PlistNode] = []
                while true {
                    skipText()
                    guard index < tokens.count else { break }
                    if case .close = tokens[index] {
                        index += 1
                        break
                    }
                    guard let element = parseValue() else { break }
                    elements.append(element)
                }
                return PlistNode(value: .array(elements), position: position)
            case "string": return PlistNode(value: .string(readText(until: name)), position: position)
            case "integer", "real": return PlistNode(value: .number(readText(until: name)), position: position)
            case "date":
                _ = readText(until: name)
                return PlistNode(value: .date, position: position)
            default:
                _ = readText(until: name)
                return PlistNode(value: .data, position: position)
            }
        default:
            return nil
        }
    }

    private mutating func parseEntries() -> [PlistEntry] {
        var entries: [PlistEntry] = []
        while true {
            skipText()
            guard index < tokens.count else { return entries }
            switch tokens[index] {
            case .close:
                index += 1
                return entries
            case .open("key", let position):
                index += 1
                let key = readText(until: "key")
                guard let value = parseValue() else { return entries }
                entries.append(PlistEntry(key: key, keyPosition: position, value: value))
            default:
                index += 1
            }
        }
    }
}
