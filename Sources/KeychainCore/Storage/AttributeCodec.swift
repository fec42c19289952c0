import Foundation

/// Encodes an item's attributes, with their types, into the bytes that are sealed into the `meta` column.
/// Layout: repeated `name:u16-len tag:u8 value:u32-len`, big-endian (``BinaryWriter``).
enum AttributeCodec {
    private enum Tag: UInt8 {
        case string = 0x73
        case data = 0x64
        case number = 0x6E
        case bool = 0x62
        case date = 0x74
    }

    private static var malformed: KeychainError { KeychainError.decode.because("item attributes are malformed") }

    /// - Throws: `errSecParam` for an attribute name or value too long to encode (validation keeps them far below).
    static func encode(_ attributes: [AttributeKey: AttributeValue]) throws -> [UInt8] {
        let sorted = attributes.sorted { $0.key < $1.key }
        // Made at its final size: the caller wipes these bytes once sealed, and a buffer that grew would have left
        // copies behind.
        var size = 0
        for (key, value) in sorted { size += 2 + key.rawValue.utf8.count + 1 + 4 + encodedCount(value) }
        var writer = BinaryWriter(capacity: size)
        for (key, value) in sorted {
            var name = key.rawValue
            try name.withUTF8 {
                try writer.appendLengthPrefixed(UnsafeRawBufferPointer($0), as: UInt16.self, tooLong: tooLarge)
            }
            writer.append(tag(of: value).rawValue)
            try withEncodedBytes(value) { try writer.appendLengthPrefixed($0, as: UInt32.self, tooLong: tooLarge) }
        }
        return writer.bytes
    }

    private static var tooLarge: KeychainError { KeychainError.param.because("an attribute is too large to store") }

    private static func tag(of value: AttributeValue) -> Tag {
        switch value {
        case .string: .string
        case .data: .data
        case .number: .number
        case .bool: .bool
        case .date: .date
        }
    }

    /// The size of a value's bytes: a flag takes one byte, numbers and dates eight.
    private static func encodedCount(_ value: AttributeValue) -> Int {
        switch value {
        case .string(let text): text.utf8.count
        case .data(let data): data.count
        case .bool: 1
        case .number, .date: 8
        }
    }

    /// Calls `body` with a value's bytes as they are stored, without an array for each.
    private static func withEncodedBytes<R>(_ value: AttributeValue, _ body: (UnsafeRawBufferPointer) throws -> R)
        rethrows -> R
    {
        switch value {
        case .string(var text): return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .data(let data): return try data.withUnsafeBytes(body)
        case .number(let number): return try withUnsafeBytes(of: number.bigEndian, body)
        case .bool(let flag): return try withUnsafeBytes(of: UInt8(flag ? 1 : 0), body)
        case .date(let date):
            return try withUnsafeBytes(of: date.timeIntervalSinceReferenceDate.bitPattern.bigEndian, body)
        }
    }

    /// Decodes what ``encode(_:)`` wrote. - Throws: `KeychainError.decode` on malformed bytes.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws -> [AttributeKey: AttributeValue] {
        var attributes: [AttributeKey: AttributeValue] = [:]
        try scan(bytes) { name, tag, raw in
            attributes[AttributeKey(String(decoding: name, as: UTF8.self))] = try value(tag: tag, raw)
        }
        return attributes
    }

    /// Decodes only the attributes in `wanted`: a search that returns data checks a few attributes of the
    /// item and has no use for the rest.
    static func decode(_ bytes: UnsafeRawBufferPointer, only wanted: [AttributeKey]) throws
        -> [AttributeKey: AttributeValue]
    {
        var attributes: [AttributeKey: AttributeValue] = [:]
        try scan(bytes) { name, tag, raw in
            for key in wanted where key.rawValue.utf8.count == name.count {
                if key.rawValue.utf8.elementsEqual(name) {
                    attributes[key] = try value(tag: tag, raw)
                    break
                }
            }
        }
        return attributes
    }

    /// Walks the encoded entries: name bytes, type tag, value bytes.
    private static func scan(
        _ bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer, UInt8, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var reader = BinaryReader(bytes, damaged: malformed)
        while !reader.isAtEnd {
            let name = try reader.lengthPrefixed(UInt16.self)
            let tag = try reader.byte()
            try body(name, tag, try reader.lengthPrefixed(UInt32.self))
        }
    }

    private static func value(tag: UInt8, _ raw: UnsafeRawBufferPointer) throws -> AttributeValue {
        var reader = BinaryReader(raw, damaged: malformed)
        let value: AttributeValue
        switch Tag(rawValue: tag) {
        case .string: return .string(String(decoding: raw, as: UTF8.self))
        case .data: return .data(Array(raw))
        case .number: value = .number(Int64(bitPattern: try reader.integer(UInt64.self)))
        case .bool: value = .bool(try reader.byte() != 0)
        case .date:
            let seconds = Double(bitPattern: try reader.integer(UInt64.self))
            value = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case nil: throw malformed
        }
        try reader.expectEnd()
        return value
    }
}
