internal import COpenSSL

/// Key derivation functions.
package enum KeyDerivation {
    /// HKDF-SHA-256 (RFC 5869): derives `count` bytes from `key`, `salt` and `info`. Computed with
    /// ``HMACSHA256`` (extract, then expand): OpenSSL's EVP_KDF path fetches the algorithm on every call and
    /// costs several times as much, which reads of access-controlled items pay once per read.
    package static func hkdfSHA256(key: SecureBytes, salt: [UInt8], info: [UInt8], count: Int = 32) throws
        -> SecureBytes
    {
        guard count > 0, count <= 255 * HMACSHA256.outputSize else {
            throw CryptoError.invalidLength(operation: "HKDF output", length: count)
        }
        var input = key.withUnsafeBytes { Array($0) }
        defer { wipe(&input) }
        let extractor = try HMACSHA256(key: SecureBytes(salt.isEmpty ? [UInt8](repeating: 0, count: 32) : salt))
        var pseudorandom = try extractor.authenticate(message: input)
        defer { wipe(&pseudorandom) }
        let expander = try HMACSHA256(key: SecureBytes(pseudorandom))
        var output: [UInt8] = []
        var block: [UInt8] = []
        defer {
            wipe(&output)
            wipe(&block)
        }
        var counter: UInt8 = 1
        while output.count < count {
            block = try expander.authenticate(message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return SecureBytes(output[0..<count])
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
                    secret.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(secret.count), salt,
                    Int32(salt.count),
                    Int32(iterations), FetchedAlgorithms.sha256, Int32(count),
                    out.bindMemory(to: UInt8.self).baseAddress)
            }
            guard ok == 1 else { throw CryptoError.library(operation: "PBKDF2") }
        }
    }
}
