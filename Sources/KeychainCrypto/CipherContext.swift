internal import COpenSSL

/// Owns one `EVP_CIPHER_CTX` and frees it in `deinit`. Not thread-safe: one per operation.
final class CipherContext {
    let pointer: OpaquePointer

    init(operation: String) throws {
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError.library(operation: operation) }
        pointer = context
    }

    deinit { EVP_CIPHER_CTX_free(pointer) }
}

@available(*, unavailable)
extension CipherContext: Sendable {}

/// Algorithms fetched from the default provider once per process: an implicit fetch on every call costs
/// about a microsecond, which matters at keychain lookup rates (OpenSSL 3 "Performance" notes).
enum FetchedAlgorithms {
    // safe: fetched EVP_CIPHER/EVP_MAC objects are immutable and may be shared between threads (OpenSSL docs)
    nonisolated(unsafe) static let aes256GCM: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil)
    nonisolated(unsafe) static let aes256ECB: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-256-ECB", nil)
    nonisolated(unsafe) static let hmac: OpaquePointer? = EVP_MAC_fetch(nil, "HMAC", nil)
    nonisolated(unsafe) static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
}
