/// Reads big-endian fields from the front of stored bytes, for every binary format of the keychain (item
/// attributes, key envelopes, backups, access controls). It never reads past the end: a short or damaged input
/// throws the format's own error (`errSecDecode` with its reason), never traps.
///
/// It reads through a buffer pointer so that decrypted bytes are not copied out of their wiped-on-free storage;
/// use it within that storage's `withUnsafeBytes`.
package struct BinaryReader {
    private let bytes: UnsafeRawBufferPointer
    private let damaged: KeychainError
    /// How many bytes have been read.
    package private(set) var offset = 0

    /// - Parameter damaged: what to throw when the input ends early or a length does not fit.
    package init(_ bytes: UnsafeRawBufferPointer, damaged: KeychainError) {
        self.bytes = bytes
        self.damaged = damaged
    }

    package var isAtEnd: Bool { offset == bytes.count }
    package var remaining: Int { bytes.count - offset }

    /// The next `count` bytes.
    package mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, count <= remaining else { throw damaged }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    package mutating func byte() throws -> UInt8 { try take(1)[0] }

    /// The next unsigned integer of `T`'s width, big-endian.
    package mutating func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws -> T {
        try take(MemoryLayout<T>.size).reduce(T(0)) { $0 << 8 | T($1) }
    }

    /// A field preceded by its length as an unsigned integer of `L`'s width.
    package mutating func lengthPrefixed<L: FixedWidthInteger & UnsignedInteger>(_: L.Type) throws
        -> UnsafeRawBufferPointer
    {
        let length = try integer(L.self)
        guard length <= L(clamping: remaining) else { throw damaged }
        return try take(Int(length))
    }

    /// Everything not read yet.
    package mutating func rest() -> UnsafeRawBufferPointer {
        defer { offset = bytes.count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset...])
    }

    /// Throws unless every byte was read.
    package func expectEnd() throws {
        guard isAtEnd else { throw damaged }
    }
}

extension BinaryReader {
    /// Runs `body` with a reader over `bytes`.
    package static func reading<R>(_ bytes: [UInt8], damaged: KeychainError, _ body: (inout BinaryReader) throws -> R)
        rethrows -> R
    {
        try bytes.withUnsafeBytes { raw in
            var reader = BinaryReader(raw, damaged: damaged)
            return try body(&reader)
        }
    }
}
