/// Writes big-endian fields, for every binary format of the keychain; the counterpart of ``BinaryReader``. A
/// writer that will hold secrets is made with its final capacity, so growing never leaves unwiped copies behind.
///
/// Its appends are inlinable, for the same reason as the reader's: the wire encoder calls them per field.
package struct BinaryWriter {
    @usableFromInline var storage: [UInt8] = []

    @inlinable
    package init(capacity: Int = 0) {
        storage.reserveCapacity(capacity)
    }

    @inlinable package var bytes: [UInt8] { storage }

    @inlinable package mutating func append(_ byte: UInt8) { storage.append(byte) }

    @inlinable
    package mutating func append(contentsOf raw: some Sequence<UInt8>) { storage.append(contentsOf: raw) }

    @inlinable
    package mutating func append(contentsOf raw: UnsafeRawBufferPointer) { storage.append(contentsOf: raw) }

    /// `count` zero bytes, in one step (placeholders that are filled in later).
    @inlinable
    package mutating func appendZeros(_ count: Int) {
        storage.append(contentsOf: repeatElement(0, count: count))
    }

    /// An integer of `T`'s width, big-endian.
    @inlinable
    package mutating func append<T: FixedWidthInteger>(integer value: T) {
        withUnsafeBytes(of: value.bigEndian) { storage.append(contentsOf: $0) }
    }

    /// A 32-bit integer, big-endian. ``append(integer:)`` without its generic parameter: called from another module
    /// (the wire encoder, once per field), the generic form was left unspecialized, a generic call per field.
    @inlinable
    package mutating func append(uint32 value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { storage.append(contentsOf: $0) }
    }

    /// A 64-bit integer, big-endian; see ``append(uint32:)``.
    @inlinable
    package mutating func append(uint64 value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { storage.append(contentsOf: $0) }
    }

    /// A field preceded by its length as an unsigned integer of `L`'s width.
    /// - Throws: `tooLong` when the field's length does not fit in `L`.
    @inlinable
    package mutating func appendLengthPrefixed<L: FixedWidthInteger & UnsignedInteger>(
        _ field: UnsafeRawBufferPointer, as _: L.Type, tooLong: @autoclosure () -> KeychainError
    ) throws {
        guard let length = L(exactly: field.count) else { throw tooLong() }
        append(integer: length)
        storage.append(contentsOf: field)
    }

    /// ``appendLengthPrefixed(_:as:tooLong:)`` for bytes in an array.
    @inlinable
    package mutating func appendLengthPrefixed<L: FixedWidthInteger & UnsignedInteger>(
        _ field: [UInt8], as type: L.Type, tooLong: @autoclosure () -> KeychainError
    ) throws {
        try field.withUnsafeBytes { try appendLengthPrefixed($0, as: type, tooLong: tooLong()) }
    }
}

extension FixedWidthInteger {
    /// The integer's bytes, big-endian.
    var bigEndianBytes: [UInt8] { withUnsafeBytes(of: bigEndian) { Array($0) } }
}
