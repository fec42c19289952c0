internal import COpenSSL

/// Key derivation functions.
package enum KeyDerivation {
    /// HKDF-SHA-256 (RFC 5869): derives `count` bytes from `key`, `salt` and `info`.
    package static func hkdfSHA256(key: SecureBytes, salt: [UInt8], info: [UInt8], count: Int = 32) throws -> SecureBytes {
        try SecureBytes(count: count) { out in
            let ok = key.withUnsafeBytes { ikm in
                kossl_hkdf_sha256(
                    ikm.bindMemory(to: UInt8.self).baseAddress, ikm.count, salt, salt.count, info, info.count,
                    out.bindMemory(to: UInt8.self).baseAddress, count)
            }
            guard ok == 1 else { throw CryptoError.library(operation: "HKDF") }
        }
    }
}

/// SHA-256, for non-secret fingerprints.
package enum SHA256 {
    /// Returns the 32-byte digest of `data`.
    package static func hash(_ data: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_Digest(data, data.count, &out, &length, FetchedAlgorithms.sha256, nil) == 1 else {
            throw CryptoError.library(operation: "SHA-256")
        }
        return out
    }
}

extension KeyDerivation {
    /// PBKDF2-HMAC-SHA-256 (RFC 8018): stretches `password` with `salt` over `iterations` rounds.
    package static func pbkdf2SHA256(
        password: SecureBytes, salt: [UInt8], iterations: Int, count: Int = 32
    ) throws -> SecureBytes {
        guard iterations > 0, iterations <= Int(Int32.max) else {
            throw CryptoError.invalidLength(operation: "PBKDF2 iterations", length: iterations)
        }
        return try SecureBytes(count: count) { out in
            let ok = password.withUnsafeBytes { secret in
                PKCS5_PBKDF2_HMAC(
                    secret.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(secret.count), salt, Int32(salt.count),
                    Int32(iterations), FetchedAlgorithms.sha256, Int32(count), out.bindMemory(to: UInt8.self).baseAddress)
            }
            guard ok == 1 else { throw CryptoError.library(operation: "PBKDF2") }
        }
    }
}
