// Generated from scripts/templates/HashFunction.swift.in by scripts/generate-hash-functions.sh: edit the template.

internal import CryptoKitOpenSSL

/// SHA3-256 (FIPS 202), producing 32-byte digests.
public struct SHA3_256: HashFunction {
    /// The number of bytes in the function's input block (its rate).
    public static let blockByteCount = 136
    /// The number of bytes in the digest.
    public static let byteCount = 32
    public typealias Digest = SHA3_256Digest

    private var state: SHA3State<SHA3Size256>

    /// Creates a hash function ready to absorb data.
    public init() { state = SHA3State<SHA3Size256>() }

    /// Absorbs the bytes of `bufferPointer`.
    /// - Parameter bufferPointer: The bytes to add to the hash.
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) { state.update(bufferPointer) }

    /// Returns the digest of everything absorbed so far; the hash function can go on absorbing.
    /// - Returns: The digest.
    public func finalize() -> SHA3_256Digest { SHA3_256Digest(bytes: state.finalizedBytes()) }
}

/// The 32-byte output of SHA3-256.
public struct SHA3_256Digest: Digest {
    let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The number of bytes in the digest.
    public static let byteCount = 32

    /// Calls `body` with the digest's bytes.
    /// - Parameter body: A closure that reads the bytes.
    /// - Returns: What `body` returns.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// An iterator over the digest's bytes.
    public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }

    /// The algorithm's name and the digest in hexadecimal, as Apple's digests print.
    public var description: String { "SHA3_256 digest: \(bytes.hexString)" }

    /// Whether two digests are equal, compared in constant time.
    public static func == (lhs: Self, rhs: Self) -> Bool { constantTimeEquals(lhs.bytes, rhs.bytes) }

    /// Feeds the digest's bytes to `hasher`.
    public func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}

/// SHA3-384 (FIPS 202), producing 48-byte digests.
public struct SHA3_384: HashFunction {
    /// The number of bytes in the function's input block (its rate).
    public static let blockByteCount = 104
    /// The number of bytes in the digest.
    public static let byteCount = 48
    public typealias Digest = SHA3_384Digest

    private var state: SHA3State<SHA3Size384>

    /// Creates a hash function ready to absorb data.
    public init() { state = SHA3State<SHA3Size384>() }

    /// Absorbs the bytes of `bufferPointer`.
    /// - Parameter bufferPointer: The bytes to add to the hash.
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) { state.update(bufferPointer) }

    /// Returns the digest of everything absorbed so far; the hash function can go on absorbing.
    /// - Returns: The digest.
    public func finalize() -> SHA3_384Digest { SHA3_384Digest(bytes: state.finalizedBytes()) }
}

/// The 48-byte output of SHA3-384.
public struct SHA3_384Digest: Digest {
    let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The number of bytes in the digest.
    public static let byteCount = 48

    /// Calls `body` with the digest's bytes.
    /// - Parameter body: A closure that reads the bytes.
    /// - Returns: What `body` returns.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// An iterator over the digest's bytes.
    public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }

    /// The algorithm's name and the digest in hexadecimal, as Apple's digests print.
    public var description: String { "SHA3_384 digest: \(bytes.hexString)" }

    /// Whether two digests are equal, compared in constant time.
    public static func == (lhs: Self, rhs: Self) -> Bool { constantTimeEquals(lhs.bytes, rhs.bytes) }

    /// Feeds the digest's bytes to `hasher`.
    public func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}

/// SHA3-512 (FIPS 202), producing 64-byte digests.
public struct SHA3_512: HashFunction {
    /// The number of bytes in the function's input block (its rate).
    public static let blockByteCount = 72
    /// The number of bytes in the digest.
    public static let byteCount = 64
    public typealias Digest = SHA3_512Digest

    private var state: SHA3State<SHA3Size512>

    /// Creates a hash function ready to absorb data.
    public init() { state = SHA3State<SHA3Size512>() }

    /// Absorbs the bytes of `bufferPointer`.
    /// - Parameter bufferPointer: The bytes to add to the hash.
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) { state.update(bufferPointer) }

    /// Returns the digest of everything absorbed so far; the hash function can go on absorbing.
    /// - Returns: The digest.
    public func finalize() -> SHA3_512Digest { SHA3_512Digest(bytes: state.finalizedBytes()) }
}

/// The 64-byte output of SHA3-512.
public struct SHA3_512Digest: Digest {
    let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The number of bytes in the digest.
    public static let byteCount = 64

    /// Calls `body` with the digest's bytes.
    /// - Parameter body: A closure that reads the bytes.
    /// - Returns: What `body` returns.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// An iterator over the digest's bytes.
    public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }

    /// The algorithm's name and the digest in hexadecimal, as Apple's digests print.
    public var description: String { "SHA3_512 digest: \(bytes.hexString)" }

    /// Whether two digests are equal, compared in constant time.
    public static func == (lhs: Self, rhs: Self) -> Bool { constantTimeEquals(lhs.bytes, rhs.bytes) }

    /// Feeds the digest's bytes to `hasher`.
    public func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}
