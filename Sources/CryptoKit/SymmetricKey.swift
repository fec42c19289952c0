internal import CryptoKitOpenSSL
internal import KeychainCrypto

/// The size of a symmetric key, in bits.
public struct SymmetricKeySize: Sendable {
    /// The number of bits.
    public let bitCount: Int

    /// 128 bits.
    public static var bits128: SymmetricKeySize { SymmetricKeySize(bitCount: 128) }
    /// 192 bits.
    public static var bits192: SymmetricKeySize { SymmetricKeySize(bitCount: 192) }
    /// 256 bits.
    public static var bits256: SymmetricKeySize { SymmetricKeySize(bitCount: 256) }

    /// A size of `bitCount` bits, which must be a positive multiple of 8 (as Apple requires, by precondition).
    /// - Parameter bitCount: The number of bits.
    public init(bitCount: Int) {
        precondition(bitCount > 0 && bitCount % 8 == 0, "a symmetric key size is a positive multiple of 8 bits")
        self.bitCount = bitCount
    }
}

/// A symmetric key. Its bytes live in memory of their own that is wiped when the last copy of the key goes away,
/// and keys compare in constant time. It has no description of its own, as Apple's has none (an app may give it
/// one); printed by reflection it shows its storage, which never shows the bytes.
public struct SymmetricKey: ContiguousBytes, Equatable, Sendable {
    let secret: SecureBytes

    init(secret: SecureBytes) { self.secret = secret }

    /// A new random key of the given size, from OpenSSL's DRBG (seeded by the kernel).
    /// - Parameter size: The key's size.
    public init(size: SymmetricKeySize) {
        secret = SecureBytes(count: size.bitCount / 8) { fillRandom($0) }
    }

    /// A key holding a copy of `data`'s bytes.
    /// - Parameter data: The key's bytes.
    public init<D: ContiguousBytes>(data: D) {
        secret = data.withUnsafeBytes { bytes in SecureBytes(count: bytes.count) { $0.copyMemory(from: bytes) } }
    }

    /// The key's size in bits.
    public var bitCount: Int { secret.count * 8 }

    /// Calls `body` with the key's bytes, which it must not keep.
    /// - Parameter body: A closure that reads the bytes.
    /// - Returns: What `body` returns.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try secret.withUnsafeBytes(body)
    }

    /// Whether two keys hold the same bytes, compared in constant time.
    public static func == (lhs: SymmetricKey, rhs: SymmetricKey) -> Bool {
        lhs.secret.constantTimeEquals(rhs.secret)
    }
}
