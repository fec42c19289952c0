import KeychainCrypto

@_implementationOnly import COpenSSL

extension ECKey {
    /// ECDSA over `digest` (already hashed), returning the raw signature `r ‖ s`, each at the curve's size.
    /// OpenSSL draws a fresh nonce per signature, as Apple's signatures are randomized.
    package func signature(forDigest digest: UnsafeRawBufferPointer) throws -> [UInt8] {
        try Self.rawSignature(fromDER: derSignature(forDigest: digest), curve: curve)
    }

    /// ECDSA over `digest` (already hashed; a digest longer than the group order is truncated, as X9.62 says),
    /// returning the DER `ECDSA-Sig-Value`.
    package func derSignature(forDigest digest: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard hasPrivateKey else { throw BackendError.invalidParameter }
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_PKEY_CTX_free(context) }
        var der = [UInt8](repeating: 0, count: 16 + 2 * (curve.coordinateByteCount + 2))
        var length = der.count
        let digestBytes = digest.bindMemory(to: UInt8.self).baseAddress
        guard EVP_PKEY_sign_init(context) == 1,
            EVP_PKEY_sign(context, &der, &length, digestBytes, digest.count) == 1
        else { throw OpenSSLErrorQueue.failure() }
        der.removeLast(der.count - length)
        return der
    }

    /// Whether `signature` (raw `r ‖ s`) is a valid ECDSA signature of `digest` under this key.
    package func isValidSignature(_ signature: UnsafeRawBufferPointer, forDigest digest: UnsafeRawBufferPointer)
        -> Bool
    {
        guard let der = try? Self.derSignature(fromRaw: signature, curve: curve) else {
            ERR_clear_error()
            return false
        }
        return der.withUnsafeBytes { isValidDERSignature($0, forDigest: digest) }
    }

    /// Whether `der` (a DER `ECDSA-Sig-Value`) is a valid ECDSA signature of `digest` under this key.
    package func isValidDERSignature(_ der: UnsafeRawBufferPointer, forDigest digest: UnsafeRawBufferPointer)
        -> Bool
    {
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else {
            ERR_clear_error()
            return false
        }
        defer { EVP_PKEY_CTX_free(context) }
        let valid =
            EVP_PKEY_verify_init(context) == 1
            && EVP_PKEY_verify(
                context, der.bindMemory(to: UInt8.self).baseAddress, der.count,
                digest.bindMemory(to: UInt8.self).baseAddress, digest.count) == 1
        if !valid { ERR_clear_error() }
        return valid
    }

    /// ECDH with `peer`: the x coordinate of this private scalar times the peer's point.
    package func sharedSecret(with peer: ECKey) throws -> SecureBytes {
        guard hasPrivateKey, peer.curve == curve else { throw BackendError.invalidParameter }
        return try PKeyDerivation.derive(pkey, peer: peer.pkey)
    }

    /// Converts a DER `ECDSA-Sig-Value` (SEQUENCE of two INTEGERs) to `r ‖ s` at the curve's size.
    /// - Throws: `BackendError.invalidEncoding` when it does not parse or a value is too large for the curve.
    package static func rawSignature(fromDER der: some Collection<UInt8>, curve: ECCurve) throws -> [UInt8] {
        let bytes = Array(der)
        let size = curve.coordinateByteCount
        let signature: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            let parsed = d2i_ECDSA_SIG(nil, &cursor, buffer.count)
            // Trailing bytes after the SEQUENCE are not a signature.
            if let parsed, cursor != buffer.baseAddress.map({ $0 + buffer.count }) {
                ECDSA_SIG_free(parsed)
                return nil
            }
            return parsed
        }
        guard let signature else {
            ERR_clear_error()
            throw BackendError.invalidEncoding
        }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 2 * size)
        let converted = raw.withUnsafeMutableBufferPointer { raw in
            BN_bn2binpad(ECDSA_SIG_get0_r(signature), raw.baseAddress, Int32(size)) == size
                && BN_bn2binpad(ECDSA_SIG_get0_s(signature), raw.baseAddress! + size, Int32(size)) == size
        }
        guard converted else { throw BackendError.invalidEncoding }
        return raw
    }

    /// Converts `r ‖ s` (each at the curve's size) to a DER `ECDSA-Sig-Value`.
    /// - Throws: `BackendError.incorrectParameterSize` for a length other than twice the curve's size.
    package static func derSignature(fromRaw raw: UnsafeRawBufferPointer, curve: ECCurve) throws -> [UInt8] {
        let size = curve.coordinateByteCount
        guard raw.count == 2 * size else { throw BackendError.incorrectParameterSize }
        let bytes = raw.bindMemory(to: UInt8.self).baseAddress!
        guard let signature = ECDSA_SIG_new() else { throw OpenSSLErrorQueue.failure() }
        defer { ECDSA_SIG_free(signature) }
        let r = BN_bin2bn(bytes, Int32(size), nil)
        let s = BN_bin2bn(bytes + size, Int32(size), nil)
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw OpenSSLErrorQueue.failure()
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { throw OpenSSLErrorQueue.failure() }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_ECDSA_SIG(signature, &cursor)
        }
        return der
    }
}

/// Key agreement through `EVP_PKEY_derive`, shared by ECDH and X25519.
enum PKeyDerivation {
    static func derive(_ pkey: OpaquePointer, peer: OpaquePointer) throws -> SecureBytes {
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer) == 1,
            EVP_PKEY_derive(context, nil, &length) == 1
        else { throw OpenSSLErrorQueue.failure() }
        var failed = false
        let secret = SecureBytes(count: length) { output in
            var written = output.count
            failed =
                EVP_PKEY_derive(context, output.bindMemory(to: UInt8.self).baseAddress, &written) != 1
                || written != output.count
        }
        // X25519 refuses an all-zero result (a small-order peer point, RFC 7748 section 6.1).
        guard !failed else { throw OpenSSLErrorQueue.failure() }
        return secret
    }
}
