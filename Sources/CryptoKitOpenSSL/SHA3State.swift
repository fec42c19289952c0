@_implementationOnly import COpenSSL

/// SHA-3 (FIPS 202) of one size: SHA3-256, SHA3-384 or SHA3-512.
package struct SHA3State<Size: SHA3Size>: HashState {
    package static var outputByteCount: Int { Size.outputByteCount }
    /// The rate: 200 bytes of Keccak state less twice the output.
    package static var blockByteCount: Int { 200 - 2 * Size.outputByteCount }
    private var context = EVPDigestContext(Size.algorithm)

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) { EVPDigestContext.update(&context, bytes) }

    package func finalize(into output: UnsafeMutableRawBufferPointer) { context.finalize(into: output) }
}

/// A SHA-3 output size, with OpenSSL's digest for it.
package protocol SHA3Size: Sendable {
    static var outputByteCount: Int { get }
    /// The EVP_MD, fetched once per process.
    static var algorithm: OpaquePointer? { get }
}

package enum SHA3Size256: SHA3Size {
    package static let outputByteCount = 32
    package static var algorithm: OpaquePointer? { FetchedSHA3.sha256 }
}

package enum SHA3Size384: SHA3Size {
    package static let outputByteCount = 48
    package static var algorithm: OpaquePointer? { FetchedSHA3.sha384 }
}

package enum SHA3Size512: SHA3Size {
    package static let outputByteCount = 64
    package static var algorithm: OpaquePointer? { FetchedSHA3.sha512 }
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
