/// Appends big-endian values: the writing side of ``ByteReader``.
package struct ByteWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// A writer whose first `capacity` bytes need no reallocation (which would leave copies behind).
    package init(capacity: Int) { bytes.reserveCapacity(capacity) }

    package mutating func uint8(_ value: UInt8) { bytes.append(value) }
    package mutating func uint16(_ value: UInt16) { append(UInt64(value), byteCount: 2) }
    package mutating func uint32(_ value: UInt32) { append(UInt64(value), byteCount: 4) }
    package mutating func uint64(_ value: UInt64) { append(value, byteCount: 8) }
    package mutating func raw(_ value: [UInt8]) { bytes += value }
    package mutating func raw(_ value: ArraySlice<UInt8>) { bytes += value }

    /// `value` preceded by its count as a 32-bit value (callers keep values under 4 GiB: frames are far smaller).
    package mutating func lengthPrefixed(_ value: [UInt8]) {
        uint32(UInt32(truncatingIfNeeded: value.count))
        bytes += value
    }

    private mutating func append(_ value: UInt64, byteCount: Int) {
        for shift in stride(from: (byteCount - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
