@_implementationOnly import COpenSSL

/// AES-256 on single 16-byte blocks (ECB without padding), keyed once.
final class OpenSSLBlockCipher: @unchecked Sendable {  // safe: used only under its owner's mutex
    private let context: CipherContext

    init(key: SecureBytes, encrypt: Bool) throws {
        guard key.count == 32 else { throw CryptoError.invalidLength(operation: "AES key wrap KEK", length: key.count) }
        context = try CipherContext(operation: "AES key wrap")
        let ok = key.withUnsafeBytes { keyBytes in
            EVP_CipherInit_ex2(
                context.pointer, FetchedAlgorithms.aes256ECB, keyBytes.bindMemory(to: UInt8.self).baseAddress, nil,
                encrypt ? 1 : 0, nil)
        }
        guard ok == 1, EVP_CIPHER_CTX_set_padding(context.pointer, 0) == 1 else {
            throw CryptoError.openSSL("AES key wrap")
        }
    }

    /// Encrypts or decrypts one 16-byte block in place. `EVP_Cipher` is the bare block interface: for ECB
    /// without padding it does what `EVP_CipherUpdate` does, with a fraction of the bookkeeping.
    func process(_ block: UnsafeMutableRawBufferPointer) throws {
        let bytes = block.bindMemory(to: UInt8.self).baseAddress
        guard EVP_Cipher(context.pointer, bytes, bytes, 16) > 0 else {
            throw CryptoError.openSSL("AES key wrap")
        }
    }
}
