/// A cryptographic hash function: one-shot through `hash(data:)`, or incremental through `update` and
/// `finalize()`. Hash functions are values: a copy continues independently.
public protocol HashFunction: Sendable {
    /// The number of bytes in the function's input block.
    static var blockByteCount: Int { get }
    /// The digest type the function produces.
    associatedtype Digest: CryptoKit.Digest
    /// Creates a hash function ready to absorb data.
    init()
    /// Absorbs the bytes of `bufferPointer`.
    mutating func update(bufferPointer: UnsafeRawBufferPointer)
    /// Returns the digest of everything absorbed so far.
    func finalize() -> Digest
}

extension HashFunction {
    /// The number of bytes in the digest.
    public static var byteCount: Int { Digest.byteCount }

    /// Computes the digest of `data`.
    /// - Parameter data: The data to hash.
    /// - Returns: The digest.
    @inlinable
    public static func hash<D: DataProtocol>(data: D) -> Digest {
        var hasher = Self()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// Computes the digest of the bytes in `bufferPointer`.
    /// - Parameter bufferPointer: The bytes to hash.
    /// - Returns: The digest.
    public static func hash(bufferPointer: UnsafeRawBufferPointer) -> Digest {
        var hasher = Self()
        hasher.update(bufferPointer: bufferPointer)
        return hasher.finalize()
    }

    /// Absorbs `data`, region by region.
    /// - Parameter data: The data to add to the hash.
    @inlinable
    public mutating func update<D: DataProtocol>(data: D) {
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }
}

/// A digest: the output of a hash function. Compares in constant time, prints its type and hexadecimal bytes,
/// and is a sequence of bytes (so `Data(digest)` and `Array(digest)` copy it out).
public protocol Digest: Hashable, ContiguousBytes, CustomStringConvertible, Sequence, Sendable
where Element == UInt8 {
    /// The number of bytes in the digest.
    static var byteCount: Int { get }
}

extension Digest {
    /// Whether the digest's bytes equal those of `rhs`, compared in constant time.
    /// - Parameters:
    ///   - lhs: A digest.
    ///   - rhs: Bytes to compare with.
    /// - Returns: `true` when the bytes are the same.
    public static func == <D: DataProtocol>(lhs: Self, rhs: D) -> Bool {
        constantTimeEquals(lhs, bytesOf: rhs)
    }
}
