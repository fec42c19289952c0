/// The hash functions the key algorithms name (signatures over digests, RSA OAEP and PSS, the X9.63 KDF).
package enum DigestAlgorithm: Sendable, CaseIterable {
    case md5
    case sha1
    case sha224
    case sha256
    case sha384
    case sha512

    /// Bytes in the digest.
    package var outputByteCount: Int {
        switch self {
        case .md5: 16
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The digest of `bytes`.
    package func hash(_ bytes: UnsafeRawBufferPointer) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: outputByteCount)
        try output.withUnsafeMutableBytes { try hash(bytes, into: $0) }
        return output
    }
}
