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
        var writer = BinaryWriter()
        let tooLong = KeychainError.param.because("an attribute is too large to store")
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            try writer.appendLengthPrefixed(Array(key.rawValue.utf8), as: UInt16.self, tooLong: tooLong)
            let (tag, bytes): (Tag, [UInt8])
            switch value {
            case .string(let text): (tag, bytes) = (.string, Array(text.utf8))
            case .data(let data): (tag, bytes) = (.data, data)
            case .number(let number): (tag, bytes) = (.number, number.bigEndianBytes)
            case .bool(let flag): (tag, bytes) = (.bool, [flag ? 1 : 0])
            case .date(let date): (tag, bytes) = (.date, date.timeIntervalSinceReferenceDate.bitPattern.bigEndianBytes)
            }
            writer.append(tag.rawValue)
            try writer.appendLengthPrefixed(bytes, as: UInt32.self, tooLong: tooLong)
        }
        return writer.bytes
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
