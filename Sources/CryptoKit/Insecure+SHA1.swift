// Generated from scripts/templates/HashFunction.swift.in by scripts/generate-hash-functions.sh: edit the template.

internal import CryptoKitOpenSSL

extension Insecure {
    /// SHA-1 (FIPS 180-4), which no longer resists collisions: for compatibility only, producing 20-byte digests.
    public struct SHA1: HashFunction {
        /// The number of bytes in the function's input block.
        public static let blockByteCount = 64
        /// The number of bytes in the digest.
        public static let byteCount = 20
        public typealias Digest = SHA1Digest

        private var state: SHA1State

        /// Creates a hash function ready to absorb data.
        public init() { state = SHA1State() }

        /// Absorbs the bytes of `bufferPointer`.
        /// - Parameter bufferPointer: The bytes to add to the hash.
        public mutating func update(bufferPointer: UnsafeRawBufferPointer) { state.update(bufferPointer) }

        /// Returns the digest of everything absorbed so far; the hash function can go on absorbing.
        /// - Returns: The digest.
        public func finalize() -> SHA1Digest { SHA1Digest(bytes: state.finalizedBytes()) }
    }

    /// The 20-byte output of SHA-1.
    public struct SHA1Digest: Digest {
        let bytes: [UInt8]

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// The number of bytes in the digest.
        public static let byteCount = 20

        /// Calls `body` with the digest's bytes.
        /// - Parameter body: A closure that reads the bytes.
        /// - Returns: What `body` returns.
        public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try bytes.withUnsafeBytes(body)
        }

        /// An iterator over the digest's bytes.
        public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }

        /// The algorithm's name and the digest in hexadecimal, as Apple's digests print.
        public var description: String { "SHA1 digest: \(bytes.hexString)" }

        /// Whether two digests are equal, compared in constant time.
        public static func == (lhs: Self, rhs: Self) -> Bool { constantTimeEquals(lhs.bytes, rhs.bytes) }

        /// Feeds the digest's bytes to `hasher`.
        public func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }
}
