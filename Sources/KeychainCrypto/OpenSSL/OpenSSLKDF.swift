@_implementationOnly import COpenSSL

/// PBKDF2 on OpenSSL's one-shot function. Lengths are checked by ``KeyDerivation``.
enum OpenSSLKDF {
    static func pbkdf2SHA256(password: SecureBytes, salt: [UInt8], iterations: Int, count: Int) throws -> SecureBytes {
        try SecureBytes(count: count) { out in
            let derived = password.withUnsafeBytes { secret in
                PKCS5_PBKDF2_HMAC(
                    secret.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(secret.count), salt,
                    Int32(salt.count), Int32(iterations), FetchedAlgorithms.sha256, Int32(count),
                    out.bindMemory(to: UInt8.self).baseAddress)
            }
            guard derived == 1 else { throw CryptoError.openSSL("PBKDF2") }
        }
    }
}

/// Digests on `EVP_Digest`.
enum OpenSSLDigest {
    static func sha256(_ data: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: SHA256.outputSize)
        var length: UInt32 = 0
        guard EVP_Digest(data, data.count, &out, &length, FetchedAlgorithms.sha256, nil) == 1 else {
            throw CryptoError.openSSL("SHA-256")
        }
        return out
    }
}
