@_implementationOnly import COpenSSL

/// SHA3-256 (FIPS 202).
package struct SHA3_256State: HashState {
    package static let outputByteCount = 32
    package static let blockByteCount = 136
    private var context = EVPDigestContext(FetchedSHA3.sha256)

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) { EVPDigestContext.update(&context, bytes) }

    package func finalize(into output: UnsafeMutableRawBufferPointer) { context.finalize(into: output) }
}

/// SHA3-384 (FIPS 202).
package struct SHA3_384State: HashState {
    package static let outputByteCount = 48
    package static let blockByteCount = 104
    private var context = EVPDigestContext(FetchedSHA3.sha384)

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) { EVPDigestContext.update(&context, bytes) }

    package func finalize(into output: UnsafeMutableRawBufferPointer) { context.finalize(into: output) }
}

/// SHA3-512 (FIPS 202).
package struct SHA3_512State: HashState {
    package static let outputByteCount = 64
    package static let blockByteCount = 72
    private var context = EVPDigestContext(FetchedSHA3.sha512)

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) { EVPDigestContext.update(&context, bytes) }

    package func finalize(into output: UnsafeMutableRawBufferPointer) { context.finalize(into: output) }
}

/// One EVP digest computation. OpenSSL offers SHA-3 only through EVP, whose context lives on the heap: a hash
/// state shares its context until it writes, then copies it (copy on write), so that copying a hash function
/// still forks the computation as Apple's value types promise.
final class EVPDigestContext: @unchecked Sendable {  // safe: written only through a uniquely held reference
    private let context: OpaquePointer

    init(_ algorithm: OpaquePointer?) {
        // Only allocation fails here, as for any Swift allocation.
        guard let made = EVP_MD_CTX_new(), EVP_DigestInit_ex(made, algorithm, nil) == 1 else {
            preconditionFailure("OpenSSL could not start a SHA-3 digest")
        }
        context = made
    }

    private init(copying other: EVPDigestContext) {
        guard let made = EVP_MD_CTX_new(), EVP_MD_CTX_copy_ex(made, other.context) == 1 else {
            preconditionFailure("OpenSSL could not copy a digest context")
        }
        context = made
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Absorbs `bytes` into `context`, copying it first when another state shares it.
    static func update(_ context: inout EVPDigestContext, _ bytes: UnsafeRawBufferPointer) {
        if !isKnownUniquelyReferenced(&context) { context = EVPDigestContext(copying: context) }
        _ = EVP_DigestUpdate(context.context, bytes.baseAddress, bytes.count)
    }

    /// Writes the digest of what was absorbed into `output`, from a copy: this context goes on as it was.
    func finalize(into output: UnsafeMutableRawBufferPointer) {
        let copy = EVPDigestContext(copying: self)
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(copy.context, output.bindMemory(to: UInt8.self).baseAddress, &length)
    }
}

private enum FetchedSHA3 {
    // safe: fetched EVP_MD objects are immutable and may be shared between threads (OpenSSL docs)
    nonisolated(unsafe) static let sha256 = EVP_MD_fetch(nil, "SHA3-256", nil)
    nonisolated(unsafe) static let sha384 = EVP_MD_fetch(nil, "SHA3-384", nil)
    nonisolated(unsafe) static let sha512 = EVP_MD_fetch(nil, "SHA3-512", nil)
}
