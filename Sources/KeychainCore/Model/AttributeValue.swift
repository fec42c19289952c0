import Foundation

/// An attribute value with the type it was given, so it comes back as it went in (an account stored as
/// data is returned as data).
public enum AttributeValue: Hashable, Sendable {
    case string(String)
    case data([UInt8])
    case number(Int64)
    case bool(Bool)
    case date(Date)

    /// The bytes that identify the value for matching: a string and data with the same UTF-8 bytes are equal;
    /// a number and a Boolean are compared as integers.
    var matchingBytes: [UInt8] {
        switch self {
        case .string(let text): return Array(text.utf8)
        case .data(let bytes): return bytes
        case .number(let number): return number.bigEndianBytes
        case .bool(let flag): return Int64(flag ? 1 : 0).bigEndianBytes
        case .date(let date): return date.timeIntervalSinceReferenceDate.bitPattern.bigEndianBytes
        }
    }

    /// The case-folded form of a string-like value, or nil when it is not text.
    var foldedBytes: [UInt8]? {
        let text: String
        switch self {
        case .string(let string): text = string
        case .data(let bytes):
            guard let decoded = String(validating: bytes, as: UTF8.self) else { return nil }
            text = decoded
        default: return nil
        }
        return Array(text.folding(options: [.caseInsensitive], locale: nil).utf8)
    }

    /// The size this value takes, for the bound on attribute sizes.
    var byteCount: Int {
        switch self {
        case .string(let text): text.utf8.count
        case .data(let bytes): bytes.count
        default: 8
        }
    }
}
