@_implementationOnly import COpenSSL

/// AES-GCM with a nonce longer than the 128 bytes OpenSSL's GCM accepts through EVP. Apple's CryptoKit takes
/// any nonce of 12 bytes or more, and GCM defines every length (NIST SP 800-38D: a nonce other than 96 bits is
/// hashed into the first counter block). This runs OpenSSL's own GCM mode (`CRYPTO_gcm128_*`, which takes any
/// length) with AES in ECB mode through EVP as its block cipher, so the AES is still the provider's (hardware
/// instructions where there are some). Slower than EVP's GCM, one EVP call per block: such nonces are rare.
enum LongNonceGCM {
    /// The longest nonce EVP's AES-GCM takes, in bytes.
    static let longestEVPNonce = 128

    /// Encrypts `plaintext` into `ciphertext` (same length) and writes the 16-byte tag into `tag`.
    static func seal(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer,
        authenticating aad: UnsafeRawBufferPointer, ciphertext: UnsafeMutableRawBufferPointer,
        tag: UnsafeMutableRawBufferPointer
    ) throws {
        try withGCM(key: key, nonce: nonce, aad: aad) { gcm, cipher in
            guard
                CRYPTO_gcm128_encrypt(
                    gcm, plaintext.bindMemory(to: UInt8.self).baseAddress,
                    ciphertext.bindMemory(to: UInt8.self).baseAddress, plaintext.count) == 0,
                !cipher.pointee.failed
            else { throw BackendError.incorrectParameterSize }
            CRYPTO_gcm128_tag(gcm, tag.bindMemory(to: UInt8.self).baseAddress, tag.count)
        }
    }

    /// Decrypts `ciphertext` into `plaintext` and checks `tag` (in constant time); on a mismatch `plaintext` is
    /// wiped. - Throws: `BackendError.authenticationFailure`.
    static func open(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer, authenticating aad: UnsafeRawBufferPointer,
        plaintext: UnsafeMutableRawBufferPointer
    ) throws {
        try withGCM(key: key, nonce: nonce, aad: aad) { gcm, cipher in
            let decrypted =
                CRYPTO_gcm128_decrypt(
                    gcm, ciphertext.bindMemory(to: UInt8.self).baseAddress,
                    plaintext.bindMemory(to: UInt8.self).baseAddress, ciphertext.count) == 0
            let matches = CRYPTO_gcm128_finish(gcm, tag.bindMemory(to: UInt8.self).baseAddress, tag.count) == 0
            guard decrypted, matches, !cipher.pointee.failed else {
                ConstantTime.wipe(plaintext)
                throw BackendError.authenticationFailure
            }
        }
    }

    /// GCM128 keyed through an AES-ECB context and given the nonce and the additional data.
    private static func withGCM(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer,
        _ body: (OpaquePointer, UnsafeMutablePointer<GCMBlockCipher>) throws -> Void
    ) throws {
        let ecb = try FetchedCiphers.aes(.ecb, keyByteCount: key.count)
        guard nonce.count > 0 else { throw BackendError.incorrectParameterSize }
        guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_EncryptInit_ex2(context, ecb, key.bindMemory(to: UInt8.self).baseAddress, nil, nil) == 1,
            EVP_CIPHER_CTX_set_padding(context, 0) == 1
        else { throw OpenSSLErrorQueue.failure() }
        let cipher = UnsafeMutablePointer<GCMBlockCipher>.allocate(capacity: 1)
        cipher.initialize(to: GCMBlockCipher(context: context))
        defer { cipher.deallocate() }
        // GCM128 keeps the hash key derived from the AES key; release wipes it.
        guard let gcm = CRYPTO_gcm128_new(cipher, encryptBlock) else { throw OpenSSLErrorQueue.failure() }
        defer { CRYPTO_gcm128_release(gcm) }
        CRYPTO_gcm128_setiv(gcm, nonce.bindMemory(to: UInt8.self).baseAddress, nonce.count)
        if aad.count > 0 {
            guard CRYPTO_gcm128_aad(gcm, aad.bindMemory(to: UInt8.self).baseAddress, aad.count) == 0 else {
                throw BackendError.incorrectParameterSize
            }
        }
        guard !cipher.pointee.failed else { throw OpenSSLErrorQueue.failure() }
        try body(gcm, cipher)
    }
}

/// The block cipher GCM128 calls: an AES-ECB context, and whether a call ever failed (the callback cannot
/// return an error).
private struct GCMBlockCipher {
    let context: OpaquePointer
    var failed = false
}

/// One AES block through the ECB context `key` points at (a ``GCMBlockCipher``).
private let encryptBlock:
    @convention(c) (UnsafePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeRawPointer?)
        -> Void = { input, output, key in
            guard let key else { return }
            let cipher = UnsafeMutableRawPointer(mutating: key).assumingMemoryBound(to: GCMBlockCipher.self)
            var written: Int32 = 0
            if EVP_EncryptUpdate(cipher.pointee.context, output, &written, input, 16) != 1 || written != 16 {
                cipher.pointee.failed = true
            }
        }
