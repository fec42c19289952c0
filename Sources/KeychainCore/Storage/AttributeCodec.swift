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
                (tag, bytes) = (0x74, withUnsafeBytes(of: date.timeIntervalSinceReferenceDate.bitPattern.bigEndian) { Array($0) })
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
        var offset = 0
        func take(_ count: Int) throws -> UnsafeRawBufferPointer {
            guard count >= 0, offset + count <= bytes.count else {
                throw KeychainError.decode.because("item attributes are malformed")
            }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }
        func integer(_ raw: UnsafeRawBufferPointer) -> UInt64 { raw.reduce(0) { $0 << 8 | UInt64($1) } }
        while offset < bytes.count {
            let nameLength = Int(integer(try take(2)))
            let name = String(decoding: try take(nameLength), as: UTF8.self)
            let tag = try take(1)[0]
            let length = Int(integer(try take(4)))
            let raw = try take(length)
            let value: AttributeValue
            switch tag {
            case 0x73: value = .string(String(decoding: raw, as: UTF8.self))
            case 0x64: value = .data(Array(raw))
            case 0x6E where length == 8: value = .number(Int64(bitPattern: integer(raw)))
            case 0x62 where length == 1: value = .bool(raw[0] != 0)
            case 0x74 where length == 8:
                value = .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: integer(raw))))
            default: throw KeychainError.decode.because("item attributes are malformed")
            }
            attributes[AttributeKey(name)] = value
        }
        return attributes
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { out += $0 }
    }
}
