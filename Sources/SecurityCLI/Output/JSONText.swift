import Foundation
import KeychainCore

/// The `--json` forms: one JSON object per line with sorted keys; items as objects keyed by Apple's attribute
/// names ("acct", "svce", …) plus "class".
enum JSONText {
    /// `object` as one line of JSON.
    static func encode(_ object: Any) -> String {
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: options)) ?? Data("{}".utf8)
        return TerminalText.jsonEscaped(String(decoding: data, as: UTF8.self))
    }

    /// An item's attributes (never its secret): text as strings, data as text when it is UTF-8 else as
    /// "0x…" hex, numbers and Booleans as such, dates as ISO 8601 (`DateText`).
    static func item(_ itemClass: ItemClass, _ attributes: [AttributeKey: AttributeValue]) -> [String: Any] {
        var object: [String: Any] = ["class": itemClass.rawValue]
        for (key, value) in attributes { object[key.rawValue] = self.value(value) }
        return object
    }

    static func value(_ value: AttributeValue) -> Any {
        switch value {
        case .string(let text): return text
        case .data(let bytes):
            return String(validating: bytes, as: UTF8.self) ?? ("0x" + bytes.map { hexByte($0) }.joined())
        case .number(let number): return number
        case .bool(let flag): return flag
        case .date(let date): return DateText.iso8601(date)
        }
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
