@_implementationOnly import COpenSSL

/// Owns one `EVP_CIPHER_CTX` and frees it in `deinit`. Not thread-safe: one per operation.
final class CipherContext {
    let pointer: OpaquePointer

    init(operation: String) throws {
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError.openSSL(operation) }
        pointer = context
    }

    deinit { EVP_CIPHER_CTX_free(pointer) }
}

@available(*, unavailable)
extension CipherContext: Sendable {}

/// Algorithms fetched from the default provider once per process: an implicit fetch on every call costs
/// about a microsecond, which matters at keychain lookup rates (OpenSSL 3 "Performance" notes).
enum FetchedAlgorithms {
    // safe: fetched EVP_CIPHER/EVP_MD objects are immutable and shareable between threads (OpenSSL)
    nonisolated(unsafe) static let aes256GCM: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil)
    nonisolated(unsafe) static let aes256ECB: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-256-ECB", nil)
    nonisolated(unsafe) static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
}

/// OpenSSL's memory functions that must not be optimized away or leak timing.
enum OpenSSLMemory {
    static func cleanse(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        OPENSSL_cleanse(base, buffer.count)
    }

    /// Compares `count` bytes in time that does not depend on their values.
    static func equal(_ lhs: UnsafeRawPointer?, _ rhs: UnsafeRawPointer?, count: Int) -> Bool {
        count == 0 || CRYPTO_memcmp(lhs, rhs, count) == 0
    }
}

/// `OSSL_PARAM` arrays built in Swift: the parameter names and algorithm names are static C strings, and the
/// octet strings point at the caller's buffers, valid for the call the array is passed to.
enum OpenSSLParameters {
    static func utf8(_ name: StaticString, _ value: StaticString) -> OSSL_PARAM {
        OSSL_PARAM_construct_utf8_string(
            UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self),
            UnsafeMutableRawPointer(mutating: value.utf8Start).assumingMemoryBound(to: CChar.self), 0)
    }

    static func octets(_ name: StaticString, _ bytes: UnsafeRawBufferPointer) -> OSSL_PARAM {
        // A zero-length string still needs an address: OpenSSL reads none of it.
        let address = bytes.baseAddress ?? UnsafeRawPointer(OpenSSLParameters.emptyAddress)
        return OSSL_PARAM_construct_octet_string(
            UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self),
            UnsafeMutableRawPointer(mutating: address), bytes.count)
    }

    static func integer(_ name: StaticString, _ value: UnsafeMutablePointer<UInt32>) -> OSSL_PARAM {
        OSSL_PARAM_construct_uint32(UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self), value)
    }

    static func end() -> OSSL_PARAM { OSSL_PARAM_construct_end() }

    // safe: never written; a fixed address for empty octet strings
    nonisolated(unsafe) private static let emptyAddress = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
}
