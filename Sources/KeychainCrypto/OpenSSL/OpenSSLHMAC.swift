internal import COpenSSL

/// One keyed `EVP_MAC_CTX` for HMAC-SHA-256, used only as a template: every MAC runs on a duplicate, so the
/// template is never changed after `init` and may be shared between threads.
final class OpenSSLHMAC: @unchecked Sendable {  // safe: the template is only read (duplicated) after init
    private let template: OpaquePointer

    init(key: UnsafeRawBufferPointer) throws {
        guard let algorithm = FetchedAlgorithms.hmac, let context = EVP_MAC_CTX_new(algorithm) else {
            throw CryptoError.openSSL("HMAC context")
        }
        var parameters = [OpenSSLParameters.utf8("digest", "SHA256"), OpenSSLParameters.end()]
        // HMAC pads its key with zeros to the block size: an empty key is the same as one zero byte, which
        // OpenSSL accepts where it refuses a key of no bytes.
        let zero: [UInt8] = [0]
        let keyed = zero.withUnsafeBytes { zeroKey in
            let usable = key.count > 0 ? key : zeroKey
            return EVP_MAC_init(context, usable.bindMemory(to: UInt8.self).baseAddress, usable.count, &parameters)
        }
        guard keyed == 1 else {
            EVP_MAC_CTX_free(context)
            throw CryptoError.openSSL("HMAC init")
        }
        template = context
    }

    private init(template: OpaquePointer) { self.template = template }

    deinit { EVP_MAC_CTX_free(template) }

    /// A template whose input starts with `prefix`.
    func absorbing(_ prefix: [UInt8]) throws -> OpenSSLHMAC {
        let context = try duplicate()
        guard EVP_MAC_update(context, prefix, prefix.count) == 1 else {
            EVP_MAC_CTX_free(context)
            throw CryptoError.openSSL("HMAC update")
        }
        return OpenSSLHMAC(template: context)
    }

    /// The 32-byte MAC of the template's input followed by `message`.
    func authenticate(_ message: UnsafeRawBufferPointer) throws -> [UInt8] {
        let context = try duplicate()
        defer { EVP_MAC_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: HMACSHA256.outputSize)
        var length = 0
        guard EVP_MAC_update(context, message.bindMemory(to: UInt8.self).baseAddress, message.count) == 1,
            EVP_MAC_final(context, &out, &length, out.count) == 1, length == HMACSHA256.outputSize
        else { throw CryptoError.openSSL("HMAC") }
        return out
    }

    private func duplicate() throws -> OpaquePointer {
        guard let context = EVP_MAC_CTX_dup(template) else { throw CryptoError.openSSL("HMAC context copy") }
        return context
    }
}
