@_implementationOnly import COpenSSL

extension DigestAlgorithm {
    /// The digest fetched once per process (fetched EVP_MD objects are immutable and shareable).
    var evpDigest: OpaquePointer? {
        switch self {
        case .md5: FetchedDigests.md5
        case .sha1: FetchedDigests.sha1
        case .sha224: FetchedDigests.sha224
        case .sha256: FetchedDigests.sha256
        case .sha384: FetchedDigests.sha384
        case .sha512: FetchedDigests.sha512
        }
    }

    /// OpenSSL's name of the digest, as the `digest` parameter of a KDF takes it.
    var parameterName: StaticString {
        switch self {
        case .md5: "MD5"
        case .sha1: "SHA1"
        case .sha224: "SHA224"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }

    /// Writes the digest of `bytes` into `output` (`outputByteCount` bytes).
    func hash(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws {
        precondition(output.count == outputByteCount)
        var length: UInt32 = 0
        guard
            EVP_Digest(
                bytes.baseAddress ?? UnsafeRawPointer(output.baseAddress!), bytes.count,
                output.bindMemory(to: UInt8.self).baseAddress, &length, evpDigest, nil) == 1
        else { throw OpenSSLErrorQueue.failure() }
    }
}

private enum FetchedDigests {
    // safe: fetched EVP_MD objects are immutable and may be shared between threads (OpenSSL docs)
    nonisolated(unsafe) static let md5 = EVP_MD_fetch(nil, "MD5", nil)
    nonisolated(unsafe) static let sha1 = EVP_MD_fetch(nil, "SHA1", nil)
    nonisolated(unsafe) static let sha224 = EVP_MD_fetch(nil, "SHA224", nil)
    nonisolated(unsafe) static let sha256 = EVP_MD_fetch(nil, "SHA256", nil)
    nonisolated(unsafe) static let sha384 = EVP_MD_fetch(nil, "SHA384", nil)
    nonisolated(unsafe) static let sha512 = EVP_MD_fetch(nil, "SHA512", nil)
}
