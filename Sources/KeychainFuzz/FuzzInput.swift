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

    /// A double: one of the values that break conversions (NaN, infinities, huge, just past an integer
    /// type's range), picked by the next byte, or else the next eight bytes' bit pattern.
    mutating func double() -> Double {
        let choice = Int(byte())
        if choice < Self.hostileDoubles.count { return Self.hostileDoubles[choice] }
        return Double(bitPattern: word())
    }

    private static let hostileDoubles: [Double] = [
        .nan, -.nan, .infinity, -.infinity, 1e300, -1e300, .greatestFiniteMagnitude, 9_223_372_036_854_775_808,
        -9_223_372_036_854_777_856, 4_294_967_296, -1, 0, 700_000_000, 1e-300,
    ]

    /// A 64-bit integer: one of the values at the edges of the integer types, or else the next eight bytes.
    mutating func integer() -> Int64 {
        let choice = Int(byte())
        if choice < Self.hostileIntegers.count { return Self.hostileIntegers[choice] }
        return Int64(bitPattern: word())
    }

    private static let hostileIntegers: [Int64] = [
        .max, .min, 4_294_967_296, 4_294_967_295, 2_147_483_648, -2_147_483_649, -1, 0, 1, 65_536, 256,
    ]

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
