internal import KeychainCrypto

/// HKDF (RFC 5869) over HMAC with any of CryptoKit's hash functions.
public struct HKDF<H: HashFunction>: Sendable {
    /// Derives `outputByteCount` bytes from `inputKeyMaterial`, `salt` and `info` (extract, then expand).
    /// `outputByteCount` must be at most 255 times the hash's size, as RFC 5869 and Apple require (by precondition).
    /// - Parameters:
    ///   - inputKeyMaterial: The input key material.
    ///   - salt: The salt.
    ///   - info: Context and application-specific information.
    ///   - outputByteCount: The number of bytes to derive.
    /// - Returns: The derived key.
    public static func deriveKey<Salt: DataProtocol, Info: DataProtocol>(
        inputKeyMaterial: SymmetricKey, salt: Salt, info: Info, outputByteCount: Int
    ) -> SymmetricKey {
        expand(
            pseudoRandomKey: extract(inputKeyMaterial: inputKeyMaterial, salt: salt), info: info,
            outputByteCount: outputByteCount)
    }

    /// Derives a key with an empty salt; see ``deriveKey(inputKeyMaterial:salt:info:outputByteCount:)``.
    public static func deriveKey<Info: DataProtocol>(
        inputKeyMaterial: SymmetricKey, info: Info, outputByteCount: Int
    ) -> SymmetricKey {
        deriveKey(inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: info, outputByteCount: outputByteCount)
    }

    /// Derives a key with an empty info; see ``deriveKey(inputKeyMaterial:salt:info:outputByteCount:)``.
    public static func deriveKey<Salt: DataProtocol>(
        inputKeyMaterial: SymmetricKey, salt: Salt, outputByteCount: Int
    ) -> SymmetricKey {
        deriveKey(inputKeyMaterial: inputKeyMaterial, salt: salt, info: [UInt8](), outputByteCount: outputByteCount)
    }

    /// Derives a key with an empty salt and info; see ``deriveKey(inputKeyMaterial:salt:info:outputByteCount:)``.
    public static func deriveKey(inputKeyMaterial: SymmetricKey, outputByteCount: Int) -> SymmetricKey {
        deriveKey(
            inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: [UInt8](), outputByteCount: outputByteCount)
    }

    /// HKDF-Extract: the pseudorandom key HMAC(salt, inputKeyMaterial). No salt means a block of zeros
    /// as long as the hash's output (RFC 5869 section 2.2).
    /// - Parameters:
    ///   - inputKeyMaterial: The input key material.
    ///   - salt: The salt, or nil.
    /// - Returns: The pseudorandom key.
    public static func extract<Salt: DataProtocol>(inputKeyMaterial: SymmetricKey, salt: Salt?)
        -> HashedAuthenticationCode<H>
    {
        let key: SymmetricKey
        if let salt, !salt.isEmpty {
            key = withContiguousBytes(of: salt) { SymmetricKey(data: $0) }
        } else {
            key = SymmetricKey(data: [UInt8](repeating: 0, count: H.Digest.byteCount))
        }
        return inputKeyMaterial.withUnsafeBytes { HMAC<H>.authenticationCode(bufferPointer: $0, using: key) }
    }

    /// HKDF-Expand: `outputByteCount` bytes from a pseudorandom key and `info` (RFC 5869 section 2.3).
    /// - Parameters:
    ///   - prk: The pseudorandom key, at least as long as the hash's output.
    ///   - info: Context and application-specific information, or nil.
    ///   - outputByteCount: The number of bytes to derive, at most 255 times the hash's size.
    /// - Returns: The derived key.
    public static func expand<PRK: ContiguousBytes, Info: DataProtocol>(
        pseudoRandomKey prk: PRK, info: Info?, outputByteCount: Int
    ) -> SymmetricKey {
        let hashSize = H.Digest.byteCount
        precondition(
            outputByteCount >= 0 && outputByteCount <= 255 * hashSize, "HKDF output is at most 255 hash lengths")
        let key = SymmetricKey(data: prk)
        let secret = SecureBytes(count: outputByteCount) { output in
            var previous: HashedAuthenticationCode<H>? = nil
            var written = 0
            var counter: UInt8 = 1
            while written < outputByteCount {
                var authenticator = HMAC<H>(key: key)
                if let previous { previous.withUnsafeBytes { authenticator.update(bufferPointer: $0) } }
                if let info { authenticator.update(data: info) }
                withUnsafeBytes(of: counter) { authenticator.update(bufferPointer: $0) }
                let block = authenticator.finalize()
                let take = min(hashSize, outputByteCount - written)
                block.withUnsafeBytes { bytes in
                    (output.baseAddress! + written).copyMemory(from: bytes.baseAddress!, byteCount: take)
                }
                written += take
                previous = block
                counter &+= 1
            }
        }
        return SymmetricKey(secret: secret)
    }
}
