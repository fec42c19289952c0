/// Writes big-endian fields, for every binary format of the keychain; the counterpart of ``BinaryReader``. A
/// writer that will hold secrets is made with its final capacity, so growing never leaves unwiped copies behind.
package struct BinaryWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func append(_ byte: UInt8) { bytes.append(byte) }

    package mutating func append(contentsOf raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    package mutating func append(contentsOf raw: UnsafeRawBufferPointer) { bytes.append(contentsOf: raw) }

    /// An integer of `T`'s width, big-endian.
    package mutating func append<T: FixedWidthInteger>(integer value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// A field preceded by its length as an unsigned integer of `L`'s width.
    /// - Throws: `tooLong` when the field's length does not fit in `L`.
    package mutating func appendLengthPrefixed<L: FixedWidthInteger & UnsignedInteger>(
        _ field: UnsafeRawBufferPointer, as _: L.Type, tooLong: @autoclosure () -> KeychainError
    ) throws {
        guard let length = L(exactly: field.count) else { throw tooLong() }
        append(integer: length)
        bytes.append(contentsOf: field)
    }

    /// ``appendLengthPrefixed(_:as:tooLong:)`` for bytes in an array.
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
