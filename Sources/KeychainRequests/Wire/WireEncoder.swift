import KeychainCore

/// Writes the typed encoding of requests and responses (big-endian, through the engine's `BinaryWriter`).
/// Secrets are written last, into the buffer at its final size, so that no grown and abandoned buffer keeps a
/// copy of one; the caller wipes the bytes once they are sent.
struct WireEncoder {
    /// Sized for a typical request or answer at once, so that small messages are not regrown field by field.
    private var writer = BinaryWriter(capacity: 512)
    private var secrets: [(offset: Int, secret: Secret)] = []
    /// A field over 4 GiB, which a 32-bit length cannot say; ``finished()`` refuses the whole message.
    private var overflowed = false

    init() {}

    mutating func byte(_ value: UInt8) { writer.append(value) }

    mutating func bool(_ value: Bool) { writer.append(value ? 1 : 0) }

    mutating func uint32(_ value: UInt32) { writer.append(uint32: value) }

    mutating func int(_ value: Int) { uint64(UInt64(bitPattern: Int64(value))) }

    mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }

    mutating func uint64(_ value: UInt64) { writer.append(uint64: value) }

    mutating func double(_ value: Double) { uint64(value.bitPattern) }

    /// A count of elements or bytes, as 32 bits.
    mutating func count(_ value: Int) {
        guard let count = UInt32(exactly: value) else {
            overflowed = true
            return uint32(0)
        }
        uint32(count)
    }

    mutating func bytes(_ value: [UInt8]) {
        count(value.count)
        writer.append(contentsOf: value)
    }

    /// A string's UTF-8 bytes, straight from its storage (no array made for them).
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            count(utf8.count)
            writer.append(contentsOf: UnsafeRawBufferPointer(utf8))
        }
    }

    /// A secret's length now, its bytes at ``finished()``: zeros stand in for them until then.
    mutating func secret(_ value: Secret) {
        count(value.count)
        secrets.append((writer.bytes.count, value))
        writer.appendZeros(value.count)
    }

    /// A presence byte, then the value when there is one.
    mutating func optional<T>(_ value: T?, _ write: (inout WireEncoder, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    mutating func array<T>(_ values: [T], _ write: (inout WireEncoder, T) -> Void) {
        count(values.count)
        for value in values { write(&self, value) }
    }

    /// The message's bytes, secrets in place.
    /// - Throws: errSecParam when a field does not fit its 32-bit length.
    func finished() throws -> [UInt8] {
        guard !overflowed else {
            throw KeychainError.param.because("a value of the request is over 4 GiB, more than a message can carry")
        }
        // Without secrets the writer's bytes are the message, shared rather than copied.
        guard !secrets.isEmpty else { return writer.bytes }
        var bytes = writer.bytes  // copied once, at its final size: the secrets go in the copy only
        bytes.withUnsafeMutableBytes { target in
            guard let start = target.baseAddress else { return }
            for (offset, secret) in secrets {
                secret.withUnsafeBytes { source in
                    guard let base = source.baseAddress, source.count > 0 else { return }
                    (start + offset).copyMemory(from: base, byteCount: source.count)
                }
            }
        }
        return bytes
    }
}
