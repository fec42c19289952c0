/// Formats bytes as macOS's `security` prints attribute values and passwords (its `print_buffer`): `"text"` when
/// every byte is printable ASCII other than a backslash, `0xHEX ` when none is, else `0xHEX  "text"` with each
/// other byte (a backslash included) as a `\ooo` escape; a quote is printed as it is, and no bytes print nothing.
///
/// The formatters append to a buffer the caller has reserved room in (`reservation(for:)`), so a secret is never
/// left behind in a temporary array or a reallocated one: the caller wipes the one buffer when done.
enum BufferFormatter {
    /// A capacity that holds any formatted form of `count` bytes without growing.
    static func reservation(for count: Int) -> Int { count * 6 + 16 }

    /// Appends the printed form of `bytes` to `output`.
    static func appendFormatted(_ bytes: [UInt8], to output: inout [UInt8]) {
        let hasText = bytes.contains(where: isPrintable)
        if bytes.contains(where: { !isPrintable($0) }) {
            output += [UInt8(ascii: "0"), UInt8(ascii: "x")]
            for byte in bytes {
                output.append(hexDigit(byte >> 4, uppercase: true))
                output.append(hexDigit(byte & 0xF, uppercase: true))
            }
            if hasText { output.append(UInt8(ascii: " ")) }
            output.append(UInt8(ascii: " "))
        }
        if hasText { appendQuoted(bytes, to: &output) }
    }

    /// Appends lowercase hexadecimal digits, with no prefix.
    static func appendHex(_ bytes: [UInt8], to output: inout [UInt8]) {
        for byte in bytes {
            output.append(hexDigit(byte >> 4, uppercase: false))
            output.append(hexDigit(byte & 0xF, uppercase: false))
        }
    }

    /// The printed form of `bytes` (for values that are not secret).
    static func format(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(reservation(for: bytes.count))
        appendFormatted(bytes, to: &output)
        return output
    }

    /// Printed as itself: printable ASCII but the backslash, which starts an escape.
    private static func isPrintable(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) && byte != 0x5C }

    private static func appendQuoted(_ bytes: [UInt8], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in bytes {
            if isPrintable(byte) {
                output.append(byte)
            } else {
                TerminalText.appendOctalEscape(byte, to: &output)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8, uppercase: Bool) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) + value - 10
    }
}
