import Foundation
import Security

/// Prints a certificate or key item as macOS's `security find-certificate` does: the keychain, `version: 512`,
/// the class, then one line per attribute in the order of their names (`"labl"<blob>="www.example.test"`).
enum CertificateListing {
    /// macOS's record type of certificates (CSSM_DL_DB_RECORD_X509_CERTIFICATE).
    static let certificateClass = "0x80001000"

    static func text(keychainPath: String, itemClass: String, attributes: [String: Any]) -> String {
        var text = "keychain: \"\(TerminalText.escaped(keychainPath))\"\nversion: 512\n"
        text += "class: \(itemClass)\nattributes:\n"
        let skipped: Set<String> = [kSecClass as String, kSecValueRef as String, kSecValueData as String]
        for name in attributes.keys.sorted() where !skipped.contains(name) && name.utf8.count == 4 {
            guard let rendered = render(attributes[name]) else { continue }
            text += "    \"\(TerminalText.escaped(name))\"\(rendered)\n"
        }
        return text
    }

    private static func render(_ value: Any?) -> String? {
        switch value {
        case let number as NSNumber:
            let word = UInt32(truncatingIfNeeded: number.int64Value)
            let digits = String(word, radix: 16, uppercase: true)
            return "<uint32>=0x" + String(repeating: "0", count: 8 - digits.count) + digits + " "
        case let text as String: return "<blob>=" + blob(Array(text.utf8))
        case let data as Data: return "<blob>=" + blob(Array(data))
        case let date as Date:
            guard DateText.isPrintable(date) else { return "<timedate>=<\(DateText.invalid(date))>" }
            return "<timedate>=" + blob(Array((DateText.compact(date) + "\0").utf8))
        default: return nil
        }
    }

    private static func blob(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "<NULL>" : String(decoding: BufferFormatter.format(bytes), as: UTF8.self)
    }

    /// `--json`: Apple's attribute names; data as text when UTF-8, else `0x…`; dates in ISO 8601.
    static func json(_ attributes: [String: Any]) -> [String: Any] {
        var object: [String: Any] = [:]
        let skipped: Set<String> = [kSecValueRef as String, kSecValueData as String]
        for (name, value) in attributes where !skipped.contains(name) {
            switch value {
            case let number as NSNumber: object[name] = number
            case let text as String: object[name] = text
            case let data as Data:
                object[name] =
                    String(validating: Array(data), as: UTF8.self)
                    ?? ("0x" + data.map { String(format: "%02x", $0) }.joined())
            case let date as Date: object[name] = DateText.iso8601(date)
            default: continue
            }
        }
        return object
    }
}
