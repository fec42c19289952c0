/// Reads fields from the front of stored bytes, failing with `errSecDecode` instead of reading past the end.
struct ByteReader {
    static let damaged = KeychainError.decode.because("a constrained item's key envelope is damaged")

    let bytes: [UInt8]
    var position: Int

    /// The next byte.
    mutating func byte() throws -> UInt8 {
        try take(1).first ?? 0
    }

    /// The next `count` bytes (a slice: its indices continue the stored bytes' indices).
    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - position >= count else { throw Self.damaged }
        defer { position += count }
        return bytes[position..<(position + count)]
    }
}
