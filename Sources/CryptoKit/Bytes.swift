internal import CryptoKitOpenSSL
internal import KeychainCrypto

/// Calls `body` with the bytes of `data` in one buffer: a single-region value (`Data`, `[UInt8]`) is passed
/// as it is; several regions are first copied together (and the copy wiped).
func withContiguousBytes<D: DataProtocol, R>(of data: D, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows
    -> R
{
    if data.regions.count == 1, let region = data.regions.first {
        return try region.withUnsafeBytes(body)
    }
    var copy = [UInt8](data)
    defer { copy.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
    return try copy.withUnsafeBytes(body)
}

/// Whether two byte buffers are equal, in time that depends only on their lengths.
func constantTimeEquals(_ lhs: some ContiguousBytes, _ rhs: some ContiguousBytes) -> Bool {
    lhs.withUnsafeBytes { lhs in rhs.withUnsafeBytes { rhs in ConstantTime.equal(lhs, rhs) } }
}

/// Whether `lhs` equals the bytes of `rhs`, in time that depends only on their lengths.
func constantTimeEquals<D: DataProtocol>(_ lhs: some ContiguousBytes, bytesOf rhs: D) -> Bool {
    lhs.withUnsafeBytes { lhs in withContiguousBytes(of: rhs) { rhs in ConstantTime.equal(lhs, rhs) } }
}

/// Fills `buffer` from OpenSSL's DRBG; if that ever fails, from the kernel through the standard library's
/// generator, so that the non-throwing initializers Apple defines (`SymmetricKey(size:)`, `Nonce()`) need not trap.
func fillRandom(_ buffer: UnsafeMutableRawBufferPointer) {
    do {
        // SystemRandom.fill passes the length to OpenSSL as an `int`: 1 GiB at a time.
        var offset = 0
        while offset < buffer.count {
            let count = min(1 << 30, buffer.count - offset)
            try SystemRandom.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + count)]))
            offset += count
        }
    } catch {
        var generator = SystemRandomNumberGenerator()
        for index in buffer.indices { buffer[index] = generator.next() }
    }
}

extension Sequence<UInt8> {
    /// Lower-case hexadecimal, two digits a byte.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Overwrites `buffer` with zeros in a way the compiler does not remove.
func wipeBytes(_ buffer: UnsafeMutableRawBufferPointer) {
    ConstantTime.wipe(buffer)
}

/// Fills a nonce from the per-thread nonce buffer (see `NonceRandom`), falling back as ``fillRandom(_:)`` does.
func fillNonce(_ buffer: UnsafeMutableRawBufferPointer) {
    do {
        try NonceRandom.fill(buffer)
    } catch {
        fillRandom(buffer)
    }
}
