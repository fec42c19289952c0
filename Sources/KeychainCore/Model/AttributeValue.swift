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

    /// Calls `body` with ``matchingBytes``, without copying a string's UTF-8 into an array first.
    func withMatchingBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if case .string(var text) = self {
            return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
        return try matchingBytes.withUnsafeBytes(body)
    }

    /// The case-folded form of a string-like value, or nil when it is not text.
    var foldedBytes: [UInt8]? {
        let text: String
        switch self {
        case .string(var string):
            if let folded = string.withUTF8(Self.foldedASCII) { return folded }
            text = string
        case .data(let bytes):
            if let folded = bytes.withUnsafeBufferPointer(Self.foldedASCII) { return folded }
            guard let decoded = String(validating: bytes, as: UTF8.self) else { return nil }
            text = decoded
        default: return nil
        }
        return Array(text.folding(options: [.caseInsensitive], locale: nil).utf8)
    }

    /// ASCII text folded as Foundation folds it (only A–Z change, to a–z), without Foundation's general folding,
    /// which costs thousands of instructions a value (every add folds each text attribute); nil when a byte is
    /// beyond ASCII.
    private static func foldedASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var folded = [UInt8](repeating: 0, count: bytes.count)
        for (index, byte) in bytes.enumerated() {
            guard byte < 0x80 else { return nil }
            folded[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }
        return folded
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

extension AttributeValue {
    /// The dates a keychain holds, in seconds since 2001-01-01 UTC: the four-digit years, 0000-01-01 to
    /// 9999-12-31 23:59:59. Beyond them (NaN, infinities, 1e300) no clock produced the value, and printing or
    /// converting it can trap.
    package static let validDates: ClosedRange<Double> = -63_145_526_400...252_423_993_599

    /// Whether `date` is one a keychain accepts, and so one anything can print.
    package static func isValidDate(_ date: Date) -> Bool {
        validDates.contains(date.timeIntervalSinceReferenceDate)
    }
}
