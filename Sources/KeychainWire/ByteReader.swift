/// Reads big-endian values from untrusted bytes. Every read checks the bytes left and throws
/// ``ByteReader/Shortfall`` instead of trapping, whatever the input.
package struct ByteReader {
    /// A read past the end: what was being read.
    package struct Shortfall: Error, CustomStringConvertible, Sendable {
        package let reading: String
        package var description: String { "the message ends inside \(reading)" }
    }

    private let bytes: ArraySlice<UInt8>
    private var position: Int

    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    package init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// Bytes not read yet.
    package var remaining: Int { bytes.endIndex - position }
    package var isAtEnd: Bool { remaining == 0 }

    package mutating func bytes(_ count: Int, reading: String = "bytes") throws(Shortfall) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw Shortfall(reading: reading) }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    /// Passes over `count` bytes.
    package mutating func skip(_ count: Int, reading: String = "bytes") throws(Shortfall) {
        guard count >= 0, count <= remaining else { throw Shortfall(reading: reading) }
        position += count
    }

    package mutating func uint8(reading: String = "a byte") throws(Shortfall) -> UInt8 {
        guard remaining >= 1 else { throw Shortfall(reading: reading) }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func uint16(reading: String = "a 16-bit value") throws(Shortfall) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(byteCount: 2, reading: reading))
    }

    package mutating func uint32(reading: String = "a 32-bit value") throws(Shortfall) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(byteCount: 4, reading: reading))
    }

    package mutating func uint64(reading: String = "a 64-bit value") throws(Shortfall) -> UInt64 {
        try integer(byteCount: 8, reading: reading)
    }

    /// Bytes preceded by their count as a 32-bit value.
    package mutating func lengthPrefixed(reading: String = "a value") throws(Shortfall) -> [UInt8] {
        let count = try uint32(reading: "the length of \(reading)")
        return try bytes(Int(count), reading: reading)
    }

    private mutating func integer(byteCount: Int, reading: String) throws(Shortfall) -> UInt64 {
        guard remaining >= byteCount else { throw Shortfall(reading: reading) }
        var value: UInt64 = 0
        for offset in 0..<byteCount { value = value << 8 | UInt64(bytes[position + offset]) }
        position += byteCount
        return value
    }
}
