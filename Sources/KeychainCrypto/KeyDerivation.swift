/// Key derivation functions.
package enum KeyDerivation {
    /// HKDF-SHA-256 (RFC 5869): derives `count` bytes (1 to 8160) from `key`, `salt` and `info`. An empty salt
    /// is the RFC's default, a string of zeros (which HMAC's zero padding of a short key makes the same).
    ///
    /// Extract and expand are the RFC's two steps over ``HMACSHA256`` (OpenSSL's SHA-256 underneath): OpenSSL's
    /// `EVP_KDF` HKDF looks the digest up by name for every derivation, which cost about 41,000 instructions per
    /// key where these HMACs cost a few thousand, and reading an access-controlled item derives one.
    package static func hkdfSHA256(key: SecureBytes, salt: [UInt8], info: [UInt8], count: Int = 32) throws
        -> SecureBytes
    {
        guard count > 0, count <= 255 * HMACSHA256.outputSize else {
            throw CryptoError.invalidLength(operation: "HKDF output", length: count)
        }
        var pseudorandomKey = try key.withUnsafeBytes { ikm in
            try HMACSHA256(key: SecureBytes(salt)).authenticate(bytes: ikm, truncatedTo: HMACSHA256.outputSize)
        }
        defer { wipe(&pseudorandomKey) }
        let expander = try HMACSHA256(key: SecureBytes(pseudorandomKey))
        return try SecureBytes(count: count) { out in
            // T(i) = HMAC(PRK, T(i-1) | info | i), T(0) empty; the output is T(1) | T(2) | … cut to `count`. The
            // input is built in one buffer, so no copy of a T is left unwiped.
            var input = [UInt8](repeating: 0, count: HMACSHA256.outputSize + info.count + 1)
            defer { wipe(&input) }
            var previous = 0
            var written = 0
            var counter: UInt8 = 1
            while written < count {
                input.replaceSubrange(previous..<(previous + info.count), with: info)
                input[previous + info.count] = counter
                var block = try input.withUnsafeBytes { bytes in
                    try expander.authenticate(
                        bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<(previous + info.count + 1)]),
                        truncatedTo: HMACSHA256.outputSize)
                }
                defer { wipe(&block) }
                let take = min(block.count, count - written)
                block.withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(rebasing: out[written..<(written + take)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<take]))
                }
                input.replaceSubrange(0..<block.count, with: block)
                previous = block.count
                written += take
                counter &+= 1
            }
        }
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
