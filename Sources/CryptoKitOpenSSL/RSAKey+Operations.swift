import KeychainCrypto

@_implementationOnly import COpenSSL

extension RSAKey {
    /// The signature of `input` (a digest, or for `.none` and `.pkcs1v15(nil)` the bytes to sign), as long as
    /// the modulus.
    /// - Throws: `BackendError.invalidParameter` for a public key, `.incorrectParameterSize` when the input
    ///   does not fit the padding (a digest of the wrong length, or too long).
    package func signature(for input: UnsafeRawBufferPointer, padding: RSASignaturePadding) throws -> [UInt8] {
        guard hasPrivateKey else { throw BackendError.invalidParameter }
        let padded = try Self.leftPadded(input, padding: padding, to: modulusByteCount)
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_sign_init(context) == 1, Self.configure(context, padding) else {
            throw OpenSSLErrorQueue.failure()
        }
        var signature = [UInt8](repeating: 0, count: modulusByteCount)
        var length = signature.count
        let signed = padded.withUnsafeBytes { input in
            EVP_PKEY_sign(
                context, &signature, &length, input.bindMemory(to: UInt8.self).baseAddress, input.count) == 1
        }
        guard signed, length == signature.count else {
            ERR_clear_error()
            throw BackendError.incorrectParameterSize
        }
        return signature
    }

    /// Whether `signature` is a valid signature of `input` (as `signature(for:padding:)` takes it). A signature
    /// shorter than the modulus is read as a number, left-padded with zeros, as Apple's SecKey reads it.
    package func isValidSignature(
        _ signature: UnsafeRawBufferPointer, for input: UnsafeRawBufferPointer, padding: RSASignaturePadding
    ) -> Bool {
        guard let block = Self.block(signature, size: modulusByteCount) else { return false }
        return block.withUnsafeBytes { isValidBlock($0, for: input, padding: padding) }
    }

    private func isValidBlock(
        _ signature: UnsafeRawBufferPointer, for input: UnsafeRawBufferPointer, padding: RSASignaturePadding
    ) -> Bool {
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        let signatureBytes = signature.bindMemory(to: UInt8.self).baseAddress
        switch padding {
        case .none, .pkcs1v15(nil):
            // Recover the value and compare it with the input: for the raw operation leading zeros aside; for
            // PKCS #1 v1.5 without a DigestInfo exactly, as OpenSSL's verify takes an empty payload for a failure.
            var recovered = [UInt8](repeating: 0, count: modulusByteCount)
            var length = recovered.count
            guard EVP_PKEY_verify_recover_init(context) == 1, Self.configure(context, padding),
                EVP_PKEY_verify_recover(context, &recovered, &length, signatureBytes, signature.count) == 1
            else {
                ERR_clear_error()
                return false
            }
            guard case .none = padding else { return recovered[0..<length].elementsEqual(input) }
            let value = recovered[0..<length].drop { $0 == 0 }
            let expected = input.drop { $0 == 0 }
            return value.elementsEqual(expected)
        default:
            break
        }
        let valid =
            EVP_PKEY_verify_init(context) == 1 && Self.configure(context, padding)
            && EVP_PKEY_verify(
                context, signatureBytes, signature.count, input.bindMemory(to: UInt8.self).baseAddress, input.count)
                == 1
        if !valid { ERR_clear_error() }
        return valid
    }

    /// `plaintext` encrypted under the public key, as long as the modulus.
    /// - Throws: `BackendError.incorrectParameterSize` when the plaintext is too long for the padding,
    ///   `.invalidParameter` when a raw input is not below the modulus.
    package func encrypt(_ plaintext: UnsafeRawBufferPointer, padding: RSAEncryptionPadding) throws -> [UInt8] {
        guard plaintext.count <= padding.maximumPlaintextByteCount(modulusByteCount: modulusByteCount) else {
            throw BackendError.incorrectParameterSize
        }
        var input = [UInt8](plaintext)
        defer { input.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
        if case .none = padding {
            input = [UInt8](repeating: 0, count: modulusByteCount - plaintext.count) + input
        }
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_encrypt_init(context) == 1, Self.configure(context, padding) else {
            throw OpenSSLErrorQueue.failure()
        }
        var output = [UInt8](repeating: 0, count: modulusByteCount)
        var length = output.count
        guard EVP_PKEY_encrypt(context, &output, &length, input, input.count) == 1, length == output.count else {
            ERR_clear_error()
            throw BackendError.invalidParameter
        }
        return output
    }

    /// The plaintext of `ciphertext` (at most as long as the modulus; a shorter one is read as a number, left-padded
    /// with zeros, as Apple's SecKey reads it), in wiped-on-free memory.
    /// - Throws: `BackendError.invalidParameter` for a public key, `.authenticationFailure` when the padding
    ///   does not check or the ciphertext is longer than the modulus.
    package func decrypt(_ ciphertext: UnsafeRawBufferPointer, padding: RSAEncryptionPadding) throws -> SecureBytes {
        guard hasPrivateKey else { throw BackendError.invalidParameter }
        guard let block = Self.block(ciphertext, size: modulusByteCount) else {
            throw BackendError.authenticationFailure
        }
        return try block.withUnsafeBytes { try decryptBlock($0, padding: padding) }
    }

    private func decryptBlock(_ ciphertext: UnsafeRawBufferPointer, padding: RSAEncryptionPadding) throws
        -> SecureBytes
    {
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_decrypt_init(context) == 1, Self.configure(context, padding) else {
            throw OpenSSLErrorQueue.failure()
        }
        if case .pkcs1v15 = padding {
            // OpenSSL 3.2 and later answer a bad PKCS #1 v1.5 padding with random bytes (implicit rejection);
            // Apple's SecKeyCreateDecryptedData reports it as a failure, and callers tell a wrong key by it. Older
            // OpenSSL does not know the setting, and fails explicitly already.
            _ = EVP_PKEY_CTX_ctrl_str(context, "rsa_pkcs1_implicit_rejection", "0")
            ERR_clear_error()
        }
        var length = 0
        let scratch = try SecureBytes(count: modulusByteCount) { output in
            length = output.count
            guard
                EVP_PKEY_decrypt(
                    context, output.bindMemory(to: UInt8.self).baseAddress, &length,
                    ciphertext.bindMemory(to: UInt8.self).baseAddress, ciphertext.count) == 1
            else {
                ERR_clear_error()
                throw BackendError.authenticationFailure
            }
        }
        return scratch.withUnsafeBytes { SecureBytes(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
    }

    /// `input` left-padded with zeros to `size` bytes, which OpenSSL wants; nil when it is longer.
    private static func block(_ input: UnsafeRawBufferPointer, size: Int) -> [UInt8]? {
        guard input.count <= size else { return nil }
        return [UInt8](repeating: 0, count: size - input.count) + input
    }

    /// For the raw operation the input is left-padded with zeros to the modulus length, as OpenSSL wants.
    private static func leftPadded(_ input: UnsafeRawBufferPointer, padding: RSASignaturePadding, to size: Int)
        throws -> [UInt8]
    {
        guard case .none = padding else { return [UInt8](input) }
        guard input.count <= size else { throw BackendError.incorrectParameterSize }
        return [UInt8](repeating: 0, count: size - input.count) + input
    }

    private static func configure(_ context: OpaquePointer, _ padding: RSASignaturePadding) -> Bool {
        switch padding {
        case .none:
            return EVP_PKEY_CTX_set_rsa_padding(context, RSA_NO_PADDING) == 1
        case .pkcs1v15(let digest):
            guard EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1 else { return false }
            guard let digest else { return true }
            return EVP_PKEY_CTX_set_signature_md(context, digest.evpDigest) == 1
        case .pss(let digest):
            return EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_signature_md(context, digest.evpDigest) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(context, digest.evpDigest) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(context, Int32(digest.outputByteCount)) == 1
        }
    }

    private static func configure(_ context: OpaquePointer, _ padding: RSAEncryptionPadding) -> Bool {
        switch padding {
        case .none: EVP_PKEY_CTX_set_rsa_padding(context, RSA_NO_PADDING) == 1
        case .pkcs1v15: EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1
        case .oaep(let digest):
            EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_oaep_md(context, digest.evpDigest) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(context, digest.evpDigest) == 1
        }
    }
}
