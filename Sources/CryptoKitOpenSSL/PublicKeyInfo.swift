@_implementationOnly import COpenSSL

/// An asymmetric key of either family, as a SubjectPublicKeyInfo or a certificate names it.
package enum AsymmetricKey: Sendable {
    case ec(ECKey)
    case rsa(RSAKey)
}

/// DER SubjectPublicKeyInfo (RFC 5280 section 4.1.2.7) reading and writing for both key families.
package enum PublicKeyInfo {
    /// The public key a DER SubjectPublicKeyInfo holds: an RSA key, or an EC key on P-256, P-384 or P-521.
    /// - Throws: `BackendError.invalidEncoding` for DER that does not parse or another algorithm or curve.
    package static func parse(_ der: UnsafeRawBufferPointer) throws -> AsymmetricKey {
        let pkey = try DERParsing.parseAll(der) { cursor, length in d2i_PUBKEY(nil, &cursor, length) }
        if EVP_PKEY_is_a(pkey, "RSA") == 1 {
            do {
                return .rsa(try RSAKey(pkey: pkey, hasPrivateKey: false))
            } catch {
                throw BackendError.invalidEncoding
            }
        }
        EVP_PKEY_free(pkey)
        for curve in [ECCurve.p256, .p384, .p521] {
            if let key = try? ECKey.parsing(subjectPublicKeyInfo: der, curve: curve) { return .ec(key) }
        }
        throw BackendError.invalidEncoding
    }

    static func encode(_ pkey: OpaquePointer) throws -> [UInt8] {
        let length = i2d_PUBKEY(pkey, nil)
        guard length > 0 else { throw OpenSSLErrorQueue.failure() }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_PUBKEY(pkey, &cursor)
        }
        return der
    }
}
