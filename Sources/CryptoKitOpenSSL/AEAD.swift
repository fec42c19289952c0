@_implementationOnly import COpenSSL

/// Authenticated encryption with associated data: AES-GCM (128, 192 and 256-bit keys) and ChaCha20-Poly1305
/// (RFC 8439), each with a 16-byte tag. Each call uses a fresh cipher context, as one-shot EVP use does.
package enum AEAD: Sendable {
    case aesGCM
    case chaCha20Poly1305

    package static let tagByteCount = 16

    /// Encrypts `plaintext` into `ciphertext` (same length) and writes the tag into `tag`.
    /// - Throws: `BackendError.incorrectKeySize` for a key the cipher does not take, `.incorrectParameterSize`
    ///   for a nonce it does not take.
    package func seal(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer,
        authenticating aad: UnsafeRawBufferPointer, ciphertext: UnsafeMutableRawBufferPointer,
        tag: UnsafeMutableRawBufferPointer
    ) throws {
        precondition(ciphertext.count == plaintext.count && tag.count == Self.tagByteCount)
        if self == .aesGCM, nonce.count > LongNonceGCM.longestEVPNonce {
            return try LongNonceGCM.seal(
                key: key, nonce: nonce, plaintext: plaintext, authenticating: aad, ciphertext: ciphertext, tag: tag)
        }
        let context = try start(key: key, nonce: nonce, encrypt: true)
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        let output = ciphertext.bindMemory(to: UInt8.self).baseAddress
        guard Self.update(context, input: aad, output: nil),
            Self.update(context, input: plaintext, output: output),
            EVP_EncryptFinal_ex(context, output.map { $0 + plaintext.count }, &length) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(Self.tagByteCount), tag.baseAddress) == 1
        else { throw OpenSSLErrorQueue.failure() }
    }

    /// Checks `tag` and decrypts `ciphertext` into `plaintext` (same length). On failure `plaintext` is wiped.
    /// - Throws: `BackendError.authenticationFailure` when the key, nonce, data or tag do not match.
    package func open(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer, authenticating aad: UnsafeRawBufferPointer,
        plaintext: UnsafeMutableRawBufferPointer
    ) throws {
        precondition(ciphertext.count == plaintext.count)
        guard tag.count == Self.tagByteCount else { throw BackendError.authenticationFailure }
        if self == .aesGCM, nonce.count > LongNonceGCM.longestEVPNonce {
            return try LongNonceGCM.open(
                key: key, nonce: nonce, ciphertext: ciphertext, tag: tag, authenticating: aad, plaintext: plaintext)
        }
        let context = try start(key: key, nonce: nonce, encrypt: false)
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        let output = plaintext.bindMemory(to: UInt8.self).baseAddress
        guard Self.update(context, input: aad, output: nil),
            Self.update(context, input: ciphertext, output: output),
            EVP_CIPHER_CTX_ctrl(
                context, EVP_CTRL_AEAD_SET_TAG, Int32(Self.tagByteCount),
                UnsafeMutableRawPointer(mutating: tag.baseAddress))
                == 1
        else { throw OpenSSLErrorQueue.failure() }
        guard EVP_DecryptFinal_ex(context, output.map { $0 + ciphertext.count }, &length) == 1 else {
            ERR_clear_error()
            ConstantTime.wipe(plaintext)
            throw BackendError.authenticationFailure
        }
    }

    /// Feeds `input` to `EVP_CipherUpdate` (additional data when `output` is nil) in pieces of at most 1 GiB,
    /// since its lengths are `int`; a stream cipher mode writes exactly as many bytes as it reads.
    private static func update(
        _ context: OpaquePointer, input: UnsafeRawBufferPointer, output: UnsafeMutablePointer<UInt8>?
    ) -> Bool {
        let piece = 1 << 30
        var offset = 0
        while offset < input.count {
            let count = min(piece, input.count - offset)
            var written: Int32 = 0
            let source = input.bindMemory(to: UInt8.self).baseAddress! + offset
            guard EVP_CipherUpdate(context, output.map { $0 + offset }, &written, source, Int32(count)) == 1 else {
                return false
            }
            offset += count
        }
        return true
    }

    private func cipher(keyByteCount: Int) throws -> OpaquePointer? {
        switch (self, keyByteCount) {
        case (.aesGCM, _): try FetchedCiphers.aes(.gcm, keyByteCount: keyByteCount)
        case (.chaCha20Poly1305, 32): FetchedCiphers.chaCha20Poly1305
        default: throw BackendError.incorrectKeySize
        }
    }

    /// A context keyed and given its nonce. GCM takes from 1 to 128 bytes here (96 bits is the fast path; longer
    /// nonces go to ``LongNonceGCM``); ChaCha20-Poly1305 takes exactly 12.
    private func start(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, encrypt: Bool) throws
        -> OpaquePointer
    {
        let cipher = try cipher(keyByteCount: key.count)
        switch self {
        case .aesGCM: guard nonce.count > 0 else { throw BackendError.incorrectParameterSize }
        case .chaCha20Poly1305: guard nonce.count == 12 else { throw BackendError.incorrectParameterSize }
        }
        guard nonce.count <= Int(Int32.max) else { throw BackendError.incorrectParameterSize }
        guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLErrorQueue.failure() }
        let enc: Int32 = encrypt ? 1 : 0
        let keyBytes = key.bindMemory(to: UInt8.self).baseAddress
        let nonceBytes = nonce.bindMemory(to: UInt8.self).baseAddress
        let ok: Bool
        if nonce.count == 12 {
            ok = EVP_CipherInit_ex2(context, cipher, keyBytes, nonceBytes, enc, nil) == 1
        } else {
            ok =
                EVP_CipherInit_ex2(context, cipher, nil, nil, enc, nil) == 1
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil) == 1
                && EVP_CipherInit_ex2(context, nil, keyBytes, nonceBytes, enc, nil) == 1
        }
        guard ok else {
            EVP_CIPHER_CTX_free(context)
            throw OpenSSLErrorQueue.failure()
        }
        return context
    }
}

/// Ciphers fetched from the default provider once per process (an implicit fetch per call costs about a
/// microsecond, OpenSSL 3 "Performance" notes).
enum FetchedCiphers {
    // safe: fetched EVP_CIPHER objects are immutable and may be shared between threads (OpenSSL docs)
    nonisolated(unsafe) static let aes128GCM = EVP_CIPHER_fetch(nil, "AES-128-GCM", nil)
    nonisolated(unsafe) static let aes192GCM = EVP_CIPHER_fetch(nil, "AES-192-GCM", nil)
    nonisolated(unsafe) static let aes256GCM = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil)
    nonisolated(unsafe) static let chaCha20Poly1305 = EVP_CIPHER_fetch(nil, "ChaCha20-Poly1305", nil)
    nonisolated(unsafe) static let aes128ECB = EVP_CIPHER_fetch(nil, "AES-128-ECB", nil)
    nonisolated(unsafe) static let aes192ECB = EVP_CIPHER_fetch(nil, "AES-192-ECB", nil)
    nonisolated(unsafe) static let aes256ECB = EVP_CIPHER_fetch(nil, "AES-256-ECB", nil)
    nonisolated(unsafe) static let aes128Wrap = EVP_CIPHER_fetch(nil, "AES-128-WRAP", nil)
    nonisolated(unsafe) static let aes192Wrap = EVP_CIPHER_fetch(nil, "AES-192-WRAP", nil)
    nonisolated(unsafe) static let aes256Wrap = EVP_CIPHER_fetch(nil, "AES-256-WRAP", nil)

    /// A mode of AES, fetched above for each key size.
    enum AESMode {
        case gcm
        case ecb
        case wrap
    }

    /// The AES cipher of `mode` for a key of `keyByteCount` bytes.
    /// - Throws: `BackendError.incorrectKeySize` for a size other than 16, 24 or 32 bytes.
    static func aes(_ mode: AESMode, keyByteCount: Int) throws -> OpaquePointer? {
        switch (mode, keyByteCount) {
        case (.gcm, 16): aes128GCM
        case (.gcm, 24): aes192GCM
        case (.gcm, 32): aes256GCM
        case (.ecb, 16): aes128ECB
        case (.ecb, 24): aes192ECB
        case (.ecb, 32): aes256ECB
        case (.wrap, 16): aes128Wrap
        case (.wrap, 24): aes192Wrap
        case (.wrap, 32): aes256Wrap
        default: throw BackendError.incorrectKeySize
        }
    }
}
