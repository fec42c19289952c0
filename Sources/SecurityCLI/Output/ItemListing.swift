import Foundation
import KeychainCore

/// Prints an item as macOS's `security find-generic-password` does:
///
///     keychain: "/path/keychain.db"
///     version: 512
///     class: "genp"
///     attributes:
///         0x00000007 <blob>="label"
///         "acct"<blob>="alice"
///
/// Attributes come in macOS's order (label and alias by number, then by four-letter name), with `<NULL>` for
/// absent ones. The access group (`"agrp"`), which macOS's file keychains lack, is listed too.
struct ItemListing {
    /// The keychain file named on the first line.
    let keychainPath: String

    /// How one attribute line is printed.
    private enum Format: String {
        case blob, uint32, sint32, timedate
    }

    /// An attribute line: its printed name, format, and the key it shows (nil: never set in this keychain).
    private struct Line {
        let name: String
        let format: Format
        let key: AttributeKey?
    }

    private static let genericPasswordLines: [Line] = [
        Line(name: "0x00000007 ", format: .blob, key: .label),
        Line(name: "0x00000008 ", format: .blob, key: nil),
        Line(name: "\"acct\"", format: .blob, key: .account),
        Line(name: "\"agrp\"", format: .blob, key: .accessGroup),
        Line(name: "\"cdat\"", format: .timedate, key: .creationDate),
        Line(name: "\"crtr\"", format: .uint32, key: .creator),
        Line(name: "\"cusi\"", format: .sint32, key: nil),
        Line(name: "\"desc\"", format: .blob, key: .description),
        Line(name: "\"gena\"", format: .blob, key: .generic),
        Line(name: "\"icmt\"", format: .blob, key: .comment),
        Line(name: "\"invi\"", format: .sint32, key: .isInvisible),
        Line(name: "\"mdat\"", format: .timedate, key: .modificationDate),
        Line(name: "\"nega\"", format: .sint32, key: .isNegative),
        Line(name: "\"prot\"", format: .blob, key: nil),
        Line(name: "\"scrp\"", format: .sint32, key: nil),
        Line(name: "\"svce\"", format: .blob, key: .service),
        Line(name: "\"type\"", format: .uint32, key: .type),
    ]

    private static let internetPasswordLines: [Line] = [
        Line(name: "0x00000007 ", format: .blob, key: .label),
        Line(name: "0x00000008 ", format: .blob, key: nil),
        Line(name: "\"acct\"", format: .blob, key: .account),
        Line(name: "\"agrp\"", format: .blob, key: .accessGroup),
        Line(name: "\"atyp\"", format: .blob, key: .authenticationType),
        Line(name: "\"cdat\"", format: .timedate, key: .creationDate),
        Line(name: "\"crtr\"", format: .uint32, key: .creator),
        Line(name: "\"cusi\"", format: .sint32, key: nil),
        Line(name: "\"desc\"", format: .blob, key: .description),
        Line(name: "\"icmt\"", format: .blob, key: .comment),
        Line(name: "\"invi\"", format: .sint32, key: .isInvisible),
        Line(name: "\"mdat\"", format: .timedate, key: .modificationDate),
        Line(name: "\"nega\"", format: .sint32, key: .isNegative),
        Line(name: "\"path\"", format: .blob, key: .path),
        Line(name: "\"port\"", format: .uint32, key: .port),
        Line(name: "\"prot\"", format: .blob, key: nil),
        Line(name: "\"ptcl\"", format: .uint32, key: .protocol),
        Line(name: "\"scrp\"", format: .sint32, key: nil),
        Line(name: "\"sdmn\"", format: .blob, key: .securityDomain),
        Line(name: "\"srvr\"", format: .blob, key: .server),
        Line(name: "\"type\"", format: .uint32, key: .type),
    ]

    /// The header and attribute lines of one item (never its secret).
    func attributesText(itemClass: ItemClass, attributes: [AttributeKey: AttributeValue]) -> String {
        var text = "keychain: \"\(TerminalText.escaped(keychainPath))\"\nversion: 512\n"
        text += "class: \"\(itemClass.rawValue)\"\nattributes:\n"
        let lines: [Line]
        switch itemClass {
        case .genericPassword: lines = Self.genericPasswordLines
        case .internetPassword: lines = Self.internetPasswordLines
        default: lines = Self.presentLines(attributes)
        }
        for line in lines {
            let value = line.key.flatMap { attributes[$0] }
            text += "    \(line.name)<\(line.format.rawValue)>=\(Self.render(value, as: line.format))\n"
        }
        return text
    }

    /// Keys and certificates: the attributes the item has, by four-letter name (macOS prints its file
    /// keychains' numbered key attributes, which this keychain does not have).
    private static func presentLines(_ attributes: [AttributeKey: AttributeValue]) -> [Line] {
        attributes.keys.sorted { $0.rawValue < $1.rawValue }.map { key in
            let format: Format =
                switch attributes[key] {
                case .date: .timedate
                case .number, .bool: .sint32
                default: .blob
                }
            return Line(name: "\"\(key.rawValue)\"", format: format, key: key)
        }
    }

    private static func render(_ value: AttributeValue?, as format: Format) -> String {
        guard let value else { return "<NULL>" }
        let bytes: [UInt8]
        switch (value, format) {
        case (_, .uint32): return renderCode(value)
        case (.string(let text), _): bytes = Array(text.utf8)
        case (.data(let data), _): bytes = data
        case (.number, _), (.bool, _): return renderCode(value)
        case (.date(let date), _):
            guard DateText.isPrintable(date) else { return "<\(DateText.invalid(date))>" }
            bytes = Array((timestamp(date) + "\0").utf8)
        }
        // Absent and empty are the same in this keychain (an absent key attribute is stored as empty).
        guard !bytes.isEmpty else { return "<NULL>" }
        return String(decoding: BufferFormatter.format(bytes), as: UTF8.self)
    }

    /// A 32-bit value as macOS prints it (`print_uint32`): its four bytes, most significant first, as any buffer
    /// is printed: `"htps"` for a four-character code, `0x00000000 ` for 0, `0x00000050  "\000\000\000P"` for 80.
    private static func renderCode(_ value: AttributeValue) -> String {
        let bytes: [UInt8]
        switch value {
        case .number(let number):
            bytes = withUnsafeBytes(of: UInt32(truncatingIfNeeded: number).bigEndian) { Array($0) }
        case .string(let text): bytes = Array(Array(text.utf8).prefix(4))
        case .data(let data): bytes = Array(data.prefix(4))
        case .bool(let flag): bytes = [0, 0, 0, flag ? 1 : 0]
        case .date: bytes = []
        }
        return String(
            decoding: BufferFormatter.format(Array(repeating: 0, count: 4 - bytes.count) + bytes), as: UTF8.self)
    }

    /// `YYYYMMDDhhmmssZ` in UTC, the form of macOS's `<timedate>` values; a date no four-digit year holds
    /// (NaN, infinite, 1e300 seconds) as `invalid date (…)`.
    static func timestamp(_ date: Date) -> String { DateText.compact(date) }
}
