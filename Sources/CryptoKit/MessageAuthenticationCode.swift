/// A message authentication code: compares in constant time and is a sequence of bytes.
public protocol MessageAuthenticationCode: Hashable, ContiguousBytes, CustomStringConvertible, Sequence, Sendable
where Element == UInt8 {
    /// The number of bytes in the code.
    var byteCount: Int { get }
}

/// A MAC algorithm keyed once and fed incrementally.
public protocol MACAlgorithm {
    /// The key type.
    associatedtype Key
    /// The code type.
    associatedtype MAC
    /// Creates an authenticator keyed with `key`.
    init(key: Key)
    /// Absorbs the bytes of `bufferPointer`.
    mutating func update(bufferPointer: UnsafeRawBufferPointer)
    /// Returns the code of everything absorbed so far.
    func finalize() -> MAC
}

extension MessageAuthenticationCode {
    /// Whether the code's bytes equal those of `rhs`, compared in constant time.
    /// - Parameters:
    ///   - lhs: A code.
    ///   - rhs: Bytes to compare with.
    /// - Returns: `true` when the bytes are the same.
    public static func == <D: DataProtocol>(lhs: Self, rhs: D) -> Bool {
        constantTimeEquals(lhs, bytesOf: rhs)
    }
}
