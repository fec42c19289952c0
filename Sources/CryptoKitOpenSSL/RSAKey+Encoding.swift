import KeychainCrypto

@_implementationOnly import COpenSSL

extension RSAKey {
    /// The public key as a DER PKCS #1 RSAPublicKey (RFC 8017 appendix A.1.1).
    package var pkcs1PublicKey: [UInt8] {
        get throws {
            let length = i2d_PublicKey(pkey, nil)
            guard length > 0 else { throw OpenSSLErrorQueue.failure() }
            var der = [UInt8](repeating: 0, count: Int(length))
            der.withUnsafeMutableBufferPointer { buffer in
                var cursor = buffer.baseAddress
                _ = i2d_PublicKey(pkey, &cursor)
            }
            return der
        }
    }

    /// The key pair as a DER PKCS #1 RSAPrivateKey (RFC 8017 appendix A.1.2). The bytes are secret.
    package var pkcs1PrivateKey: SecureBytes {
        get throws {
            guard hasPrivateKey else { throw BackendError.invalidParameter }
            let length = i2d_PrivateKey(pkey, nil)
            guard length > 0 else { throw OpenSSLErrorQueue.failure() }
            return SecureBytes(count: Int(length)) { output in
                var cursor = output.bindMemory(to: UInt8.self).baseAddress
                _ = i2d_PrivateKey(pkey, &cursor)
            }
        }
    }

    /// The public key as a DER SubjectPublicKeyInfo (RFC 5280).
    package var subjectPublicKeyInfo: [UInt8] {
        get throws { try PublicKeyInfo.encode(pkey) }
    }

    /// A public key from a DER PKCS #1 RSAPublicKey.
    /// - Throws: `BackendError.invalidEncoding` when the DER does not parse or has trailing bytes,
    ///   `.invalidParameter` for a modulus outside `modulusBitRange`.
    package convenience init(pkcs1PublicKey der: UnsafeRawBufferPointer) throws {
        let pkey = try DERParsing.parseAll(der) { cursor, length in d2i_PublicKey(EVP_PKEY_RSA, nil, &cursor, length) }
        try self.init(pkey: pkey, hasPrivateKey: false)
    }

    /// A key pair from a DER PKCS #1 RSAPrivateKey.
    /// - Throws: `BackendError.invalidEncoding` when the DER does not parse or has trailing bytes,
    ///   `.invalidParameter` for a modulus outside `modulusBitRange` or parts that do not agree
    ///   (see `partsAgree`).
    package convenience init(pkcs1PrivateKey der: UnsafeRawBufferPointer) throws {
        let pkey = try DERParsing.parseAll(der) { cursor, length in
            d2i_PrivateKey(EVP_PKEY_RSA, nil, &cursor, length)
        }
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else {
            EVP_PKEY_free(pkey)
            throw OpenSSLErrorQueue.failure()
        }
        defer { EVP_PKEY_CTX_free(context) }
        // A private key whose factors do not match its modulus would sign garbage: refuse it here.
        guard EVP_PKEY_private_check(context) == 1 else {
            ERR_clear_error()
            EVP_PKEY_free(pkey)
            throw BackendError.invalidParameter
        }
        try self.init(pkey: pkey, hasPrivateKey: true)
        guard partsAgree() else { throw BackendError.invalidParameter }
    }
}

/// Runs `d2i_…` parsers over all of a DER buffer.
enum DERParsing {
    /// The key `parser` reads from all of `der`; fails on an empty buffer, a parse failure or trailing bytes.
    static func parseAll(
        _ der: UnsafeRawBufferPointer, _ parser: (inout UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    ) throws -> OpaquePointer {
        let start = der.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer($0) }
        var cursor = start
        guard der.count > 0, let parsed = parser(&cursor, der.count) else {
            ERR_clear_error()
            throw BackendError.invalidEncoding
        }
        guard cursor == start.map({ $0 + der.count }) else {
            EVP_PKEY_free(parsed)
            throw BackendError.invalidEncoding
        }
        return parsed
    }
}
