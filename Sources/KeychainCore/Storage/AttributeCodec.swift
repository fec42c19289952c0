import Foundation

/// Encodes an item's attributes, with their types, into the bytes that are sealed into the `meta` column.
/// Layout: repeated `keyLength:u16 key tag:u8 valueLength:u32 value`, big-endian.
enum AttributeCodec {
    static func encode(_ attributes: [AttributeKey: AttributeValue]) -> [UInt8] {
        var out: [UInt8] = []
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            let name = Array(key.rawValue.utf8)
            append(UInt16(name.count), to: &out)
            out += name
            let (tag, bytes): (UInt8, [UInt8])
            switch value {
            case .string(let text): (tag, bytes) = (0x73, Array(text.utf8))
            case .data(let data): (tag, bytes) = (0x64, data)
            case .number(let number): (tag, bytes) = (0x6E, withUnsafeBytes(of: number.bigEndian) { Array($0) })
            case .bool(let flag): (tag, bytes) = (0x62, [flag ? 1 : 0])
            case .date(let date):
                (tag, bytes) = (
                    0x74, withUnsafeBytes(of: date.timeIntervalSinceReferenceDate.bitPattern.bigEndian) { Array($0) }
                )
            }
            out.append(tag)
            append(UInt32(bytes.count), to: &out)
            out += bytes
        }
        return out
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
        let count = bytes.count
        var offset = 0
        while offset < count {
            guard count - offset >= 2 else { throw malformed }
            let nameLength = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            offset += 2
            guard count - offset >= nameLength + 5 else { throw malformed }
            let name = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + nameLength)])
            offset += nameLength
            let tag = bytes[offset]
            let length =
                Int(bytes[offset + 1]) << 24 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 8
                | Int(bytes[offset + 4])
            offset += 5
            guard count - offset >= length else { throw malformed }
            try body(name, tag, UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]))
            offset += length
        }
    }

    private static var malformed: KeychainError { KeychainError.decode.because("item attributes are malformed") }

    private static func integer(_ raw: UnsafeRawBufferPointer) -> UInt64 { raw.reduce(0) { $0 << 8 | UInt64($1) } }

    private static func value(tag: UInt8, _ raw: UnsafeRawBufferPointer) throws -> AttributeValue {
        switch tag {
        case 0x73: return .string(String(decoding: raw, as: UTF8.self))
        case 0x64: return .data(Array(raw))
        case 0x6E where raw.count == 8: return .number(Int64(bitPattern: integer(raw)))
        case 0x62 where raw.count == 1: return .bool(raw[0] != 0)
        case 0x74 where raw.count == 8:
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: integer(raw))))
        default: throw KeychainError.decode.because("item attributes are malformed")
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { out += $0 }
    }
}
