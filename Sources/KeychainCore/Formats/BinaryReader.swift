/// Reads big-endian fields from the front of stored bytes, for every binary format of the keychain (item
/// attributes, key envelopes, backups, access controls). It never reads past the end: a short or damaged input
/// throws the format's own error (`errSecDecode` with its reason), never traps.
///
/// It reads through a buffer pointer so that decrypted bytes are not copied out of their wiped-on-free storage;
/// use it within that storage's `withUnsafeBytes`.
///
/// Its reads are inlinable: the daemon's wire decoder, in another module, calls them for every field, and an
/// unspecialized generic call per integer cost more than the read itself.
package struct BinaryReader {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline let damaged: KeychainError
    @usableFromInline var position = 0

    /// - Parameter damaged: what to throw when the input ends early or a length does not fit.
    @inlinable
    package init(_ bytes: UnsafeRawBufferPointer, damaged: KeychainError) {
        self.bytes = bytes
        self.damaged = damaged
    }

    /// How many bytes have been read.
    @inlinable package var offset: Int { position }
    @inlinable package var isAtEnd: Bool { position == bytes.count }
    @inlinable package var remaining: Int { bytes.count - position }

    /// The next `count` bytes.
    @inlinable
    package mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, count <= remaining else { throw damaged }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)])
    }

    @inlinable
    package mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw damaged }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next unsigned integer of `T`'s width, big-endian.
    @inlinable
    package mutating func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard size <= remaining else { throw damaged }
        defer { position += size }
        return T(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
    }

    /// The next 32-bit unsigned integer, big-endian: the lengths and counts of every format.
    @inlinable
    package mutating func uint32() throws -> UInt32 { try integer(UInt32.self) }

    /// The next 64-bit unsigned integer, big-endian.
    @inlinable
    package mutating func uint64() throws -> UInt64 { try integer(UInt64.self) }

    /// A field preceded by its length as an unsigned integer of `L`'s width.
    @inlinable
    package mutating func lengthPrefixed<L: FixedWidthInteger & UnsignedInteger>(_: L.Type) throws
        -> UnsafeRawBufferPointer
    {
        let length = try integer(L.self)
        guard length <= L(clamping: remaining) else { throw damaged }
        return try take(Int(length))
    }

    /// Everything not read yet.
    @inlinable
    package mutating func rest() -> UnsafeRawBufferPointer {
        defer { position = bytes.count }
        return UnsafeRawBufferPointer(rebasing: bytes[position...])
    }

    /// Throws unless every byte was read.
    @inlinable
    package func expectEnd() throws {
        guard isAtEnd else { throw damaged }
    }
}

extension BinaryReader {
    /// Runs `body` with a reader over `bytes`.
    @inlinable
    package static func reading<R>(_ bytes: [UInt8], damaged: KeychainError, _ body: (inout BinaryReader) throws -> R)
        rethrows -> R
    {
        try bytes.withUnsafeBytes { raw in
            var reader = BinaryReader(raw, damaged: damaged)
            return try body(&reader)
        }
    }
}
