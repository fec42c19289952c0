import KeychainCrypto

/// Cryptographically secure random bytes (OpenSSL's DRBG, seeded by the kernel).
package enum SecureRandom {
    /// Fills `buffer` with random bytes.
    /// - Throws: `KeychainError` when the generator fails.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        do { try SystemRandom.fill(buffer) } catch {
            throw KeychainError(SecurityStatus.internalComponent, reason: "the random generator failed")
        }
    }
}
