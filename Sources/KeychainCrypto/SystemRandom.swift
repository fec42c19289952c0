internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG, which is seeded by the kernel.
package enum SystemRandom {
    /// Fills `buffer` with random bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        guard buffer.count > 0 else { return }
        guard RAND_bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)) == 1 else {
            throw CryptoError.library(operation: "RAND_bytes")
        }
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
