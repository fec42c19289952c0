/// Reads structured values from the front of a fuzz input; past the end every read answers zero, so any
/// input decodes to something.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = max(position, end) }
        return position < end ? Array(bytes[position..<end]) : []
    }

    /// A 64-bit value from the next eight bytes, big-endian.
    mutating func word() -> UInt64 {
        bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A double from the next eight bytes' bit pattern: NaN, infinities and huge values included.
    mutating func double() -> Double {
        Double(bitPattern: word())
    }

    /// One of `choices`, picked by the next byte.
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(byte()) % choices.count]
    }

    /// Bytes with a length given by the next byte (at most `limit`).
    mutating func lengthPrefixed(limit: Int = 64) -> [UInt8] {
        bytes(Int(byte()) % (limit + 1))
    }

    /// Text from length-prefixed bytes (invalid UTF-8 repaired, as a caller's String would be).
    mutating func text(limit: Int = 32) -> String {
        String(decoding: lengthPrefixed(limit: limit), as: UTF8.self)
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] {
        bytes(bytes.count - position)
    }
}
