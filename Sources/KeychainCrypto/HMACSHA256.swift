internal import COpenSSL
import Synchronization

/// HMAC-SHA-256 under one fixed key. The keyed context is built once; each digest starts from a copy of it,
/// which avoids re-fetching the algorithm and re-hashing the key on every call.
package final class HMACSHA256: Sendable {
    package static let outputSize = 32

    // safe: the template context is only read (duplicated) under the mutex, never advanced in place
    private let template: Mutex<TemplateContext>

    /// Prepares HMAC-SHA-256 with `key`.
    package init(key: SecureBytes) throws {
        guard let mac = FetchedAlgorithms.hmac, let context = EVP_MAC_CTX_new(mac) else {
            throw CryptoError.library(operation: "HMAC init")
        }
        let ok = key.withUnsafeBytes { kossl_mac_init_sha256(context, $0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
        guard ok == 1 else {
            EVP_MAC_CTX_free(context)
            throw CryptoError.library(operation: "HMAC init")
        }
        template = Mutex(TemplateContext(pointer: context))
    }

    /// Returns the 32-byte MAC of the concatenation of `parts`.
    package func authenticate(_ parts: [UInt8]...) throws -> [UInt8] {
        try authenticate(parts: parts)
    }

    /// Returns the 32-byte MAC of the concatenation of `parts`.
    package func authenticate(parts: [[UInt8]]) throws -> [UInt8] {
        guard let context = template.withLock({ EVP_MAC_CTX_dup($0.pointer) }) else {
            throw CryptoError.library(operation: "HMAC")
        }
        defer { EVP_MAC_CTX_free(context) }
        for part in parts where !part.isEmpty {
            guard EVP_MAC_update(context, part, part.count) == 1 else { throw CryptoError.library(operation: "HMAC") }
        }
        var out = [UInt8](repeating: 0, count: Self.outputSize)
        var length = 0
        guard EVP_MAC_final(context, &out, &length, out.count) == 1, length == Self.outputSize else {
            throw CryptoError.library(operation: "HMAC")
        }
        return out
    }
}

/// Owns the keyed `EVP_MAC_CTX`.
private final class TemplateContext {
    let pointer: OpaquePointer
    init(pointer: OpaquePointer) { self.pointer = pointer }
    deinit { EVP_MAC_CTX_free(pointer) }
}
