/// Cryptographically secure random bytes from OpenSSL's DRBG, which is seeded by the kernel.
package enum SystemRandom {
    /// Fills `buffer` with random bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        try OpenSSLRandom.fill(buffer)
    }

    /// Returns `count` random bytes.
    package static func bytes(_ count: Int) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        try result.withUnsafeMutableBytes { try fill($0) }
        return result
    }

    /// Returns a fresh random key of `count` bytes in wiped-on-free memory.
    package static func key(_ count: Int = 32) throws -> SecureBytes {
        try SecureBytes(count: count) { try fill($0) }
    }
}
