internal import CryptoKitOpenSSL
internal import KeychainCrypto

/// The result of a key agreement. Use it only through a key derivation function
/// (``hkdfDerivedSymmetricKey(using:salt:sharedInfo:outputByteCount:)`` or
/// ``x963DerivedSymmetricKey(using:sharedInfo:outputByteCount:)``). Compares in constant time; its description
/// never shows the bytes.
public struct SharedSecret: ContiguousBytes, Hashable, Sendable, CustomStringConvertible {
    let secret: SecureBytes

    init(secret: SecureBytes) { self.secret = secret }

    /// Calls `body` with the secret's bytes, which it must not keep.
    /// - Parameter body: A closure that reads the bytes.
    /// - Returns: What `body` returns.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try secret.withUnsafeBytes(body)
    }

    /// A symmetric key derived with the ANSI X9.63 KDF (SEC 1 section 3.6.1): the hash of
    /// `secret ‖ counter (32-bit big-endian, from 1) ‖ sharedInfo`, block after block.
    /// - Parameters:
    ///   - hashFunction: The hash function.
    ///   - sharedInfo: Information both parties share.
    ///   - outputByteCount: The number of bytes to derive.
    /// - Returns: The derived key.
    public func x963DerivedSymmetricKey<H: HashFunction, SI: DataProtocol>(
        using hashFunction: H.Type, sharedInfo: SI, outputByteCount: Int
    ) -> SymmetricKey {
        precondition(outputByteCount >= 0, "a derived key has a non-negative length")
        let derived = SecureBytes(count: outputByteCount) { output in
            var written = 0
            var counter: UInt32 = 1
            while written < outputByteCount {
                var hasher = H()
                secret.withUnsafeBytes { hasher.update(bufferPointer: $0) }
                Swift.withUnsafeBytes(of: counter.bigEndian) { hasher.update(bufferPointer: $0) }
                hasher.update(data: sharedInfo)
                let take = min(H.Digest.byteCount, outputByteCount - written)
                hasher.finalize().withUnsafeBytes { block in
                    (output.baseAddress! + written).copyMemory(from: block.baseAddress!, byteCount: take)
                }
                written += take
                counter += 1
            }
        }
        return SymmetricKey(secret: derived)
    }

    /// A symmetric key derived with HKDF (RFC 5869), the secret as input key material and `sharedInfo` as info.
    /// - Parameters:
    ///   - hashFunction: The hash function.
    ///   - salt: The salt.
    ///   - sharedInfo: Information both parties share.
    ///   - outputByteCount: The number of bytes to derive.
    /// - Returns: The derived key.
    public func hkdfDerivedSymmetricKey<H: HashFunction, Salt: DataProtocol, SI: DataProtocol>(
        using hashFunction: H.Type, salt: Salt, sharedInfo: SI, outputByteCount: Int
    ) -> SymmetricKey {
        HKDF<H>.deriveKey(
            inputKeyMaterial: SymmetricKey(secret: secret), salt: salt, info: sharedInfo,
            outputByteCount: outputByteCount)
    }

    /// Whether two secrets are equal, compared in constant time.
    public static func == (lhs: SharedSecret, rhs: SharedSecret) -> Bool {
        lhs.secret.constantTimeEquals(rhs.secret)
    }

    /// Whether the secret equals the bytes of `rhs`, compared in constant time.
    public static func == <D: DataProtocol>(lhs: SharedSecret, rhs: D) -> Bool {
        constantTimeEquals(lhs, bytesOf: rhs)
    }

    /// Feeds the secret to `hasher` (Swift's hasher is keyed per process and does not reveal its input).
    public func hash(into hasher: inout Hasher) {
        secret.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// The secret's length, never its bytes. (Apple's prints the bytes; this project never prints a secret.)
    public var description: String { "SharedSecret(\(secret.count) bytes, redacted)" }
}
