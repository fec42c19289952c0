/// Key derivation functions.
package enum KeyDerivation {
    /// HKDF-SHA-256 (RFC 5869): derives `count` bytes (1 to 8160) from `key`, `salt` and `info`. An empty salt
    /// is the RFC's default, a string of zeros.
    package static func hkdfSHA256(key: SecureBytes, salt: [UInt8], info: [UInt8], count: Int = 32) throws
        -> SecureBytes
    {
        guard count > 0, count <= 255 * HMACSHA256.outputSize else {
            throw CryptoError.invalidLength(operation: "HKDF output", length: count)
        }
        return try OpenSSLKDF.hkdfSHA256(key: key, salt: salt, info: info, count: count)
    }

    /// PBKDF2-HMAC-SHA-256 (RFC 8018): stretches `password` with `salt` over `iterations` rounds.
    package static func pbkdf2SHA256(
        password: SecureBytes, salt: [UInt8], iterations: Int, count: Int = 32
    ) throws -> SecureBytes {
        guard iterations > 0, iterations <= Int(Int32.max) else {
            throw CryptoError.invalidLength(operation: "PBKDF2 iterations", length: iterations)
        }
        guard count > 0, count <= Int(Int32.max) else {
            throw CryptoError.invalidLength(operation: "PBKDF2 output", length: count)
        }
        return try OpenSSLKDF.pbkdf2SHA256(password: password, salt: salt, iterations: iterations, count: count)
    }
}
