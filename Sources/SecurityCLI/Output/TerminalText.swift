/// The one rule for which characters of a value may reach a terminal as they are, and the escaped forms of the
/// others. Every path that prints text goes through it: `OutputSink`'s text writes (messages, reasons, usage,
/// listings), the listings' byte formatter, and the JSON forms.
///
/// Unsafe are the control characters (C0, DEL and C1, which terminals act on: `ESC [` and its one-character
/// form U+009B start a control sequence) and the bidirectional formatting characters (U+061C, U+200E, U+200F,
/// U+202A to U+202E, U+2066 to U+2069), which reorder how the rest of a line reads.
enum TerminalText {
    /// Whether `scalar` may be printed as it is.
    static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: false
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: false
        default: true
        }
    }

    /// `text` with each unsafe character written as the `\ooo` octal escapes of its UTF-8 bytes, the form the
    /// listings use (`ESC` is `\033`). A newline is escaped too unless `keepingNewlines`, so a value cannot
    /// start a line of its own that looks like the command's.
    static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { !isSafe($0) }) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 16)
        for scalar in text.unicodeScalars {
            if isSafe(scalar) || (keepingNewlines && scalar == "\n") {
                result.unicodeScalars.append(scalar)
                continue
            }
            var bytes: [UInt8] = []
            appendOctalEscapes(of: scalar, to: &bytes)
            result += String(decoding: bytes, as: UTF8.self)
        }
        return result
    }

    /// `json` (the text of a JSON document) with each unsafe character written as a `\uXXXX` escape. In JSON
    /// text such characters can only stand inside strings, where the escape means the same character.
    static func jsonEscaped(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { !isSafe($0) }) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if isSafe(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                let digits = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
            }
        }
        return result
    }

    /// Appends `\ooo` for one byte.
    static func appendOctalEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        output.append(UInt8(ascii: "0") + (byte >> 6))
        output.append(UInt8(ascii: "0") + (byte >> 3 & 7))
        output.append(UInt8(ascii: "0") + (byte & 7))
    }

    private static func appendOctalEscapes(of scalar: Unicode.Scalar, to output: inout [UInt8]) {
        for byte in String(scalar).utf8 { appendOctalEscape(byte, to: &output) }
    }
}
