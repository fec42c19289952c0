import KeychainCrypto

@_implementationOnly import COpenSSL

/// The ANSI X9.63 key derivation function (SEC 1 section 3.6.1): the digest of secret ‖ 32-bit counter ‖ shared
/// info, for counters 1, 2, … until enough bytes. Through OpenSSL's `X963KDF`.
package enum X963KDF {
    /// `byteCount` bytes derived from `secret` and `sharedInfo` with `digest`.
    /// - Throws: `BackendError.incorrectParameterSize` for a count of 0 or past the KDF's limit.
    package static func derive(
        secret: UnsafeRawBufferPointer, sharedInfo: UnsafeRawBufferPointer, byteCount: Int,
        digest: DigestAlgorithm
    ) throws -> SecureBytes {
        guard byteCount > 0, byteCount <= (1 << 24) else { throw BackendError.incorrectParameterSize }
        guard let kdf = FetchedKDF.x963 else { throw OpenSSLErrorQueue.failure() }
        guard let context = EVP_KDF_CTX_new(kdf) else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_KDF_CTX_free(context) }
        // The digest name, key and info buffers must live until EVP_KDF_derive has read the parameters.
        var failed = false
        let output = SecureBytes(count: byteCount) { output in
            // OSSL_PARAM keeps the name pointers: static strings, which live for the program's life.
            var parameters = [
                OSSL_PARAM_construct_utf8_string(
                    StaticCString.pointer("digest"), StaticCString.mutablePointer(digest.parameterName), 0),
                OSSL_PARAM_construct_octet_string(
                    StaticCString.pointer("key"), UnsafeMutableRawPointer(mutating: secret.baseAddress),
                    secret.count),
                OSSL_PARAM_construct_octet_string(
                    StaticCString.pointer("info"), UnsafeMutableRawPointer(mutating: sharedInfo.baseAddress),
                    sharedInfo.count),
                OSSL_PARAM_construct_end(),
            ]
            if sharedInfo.count == 0 { parameters.remove(at: 2) }
            failed =
                EVP_KDF_derive(
                    context, output.bindMemory(to: UInt8.self).baseAddress, output.count, &parameters) != 1
        }
        guard !failed else { throw OpenSSLErrorQueue.failure() }
        return output
    }
}

private enum FetchedKDF {
    // safe: a fetched EVP_KDF is immutable and may be shared between threads (OpenSSL docs)
    nonisolated(unsafe) static let x963 = EVP_KDF_fetch(nil, "X963KDF", nil)
}

/// NUL-terminated pointers to string literals, which are stored once for the program's life: OpenSSL's
/// parameter arrays keep the pointers they are given.
enum StaticCString {
    static func pointer(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    static func mutablePointer(_ literal: StaticString) -> UnsafeMutablePointer<CChar> {
        UnsafeMutablePointer(mutating: pointer(literal))
    }
}
