import KeychainCrypto

@_implementationOnly import COpenSSL

/// An RSA key pair or public key in an `EVP_PKEY`, immutable once made. OpenSSL allows concurrent operations
/// with one key.
package final class RSAKey: @unchecked Sendable {  // safe: the EVP_PKEY is never modified after init
    /// The sizes generated and imported: 512 to 8192 bits, as Apple's SecRSAKey.c makes them.
    package static let modulusBitRange = 512...8192

    /// Whether the private exponent and factors are present.
    package let hasPrivateKey: Bool
    let pkey: OpaquePointer
    /// Bits in the modulus.
    package let modulusBitCount: Int

    /// Bytes in the modulus: the size of a signature or ciphertext.
    package var modulusByteCount: Int { (modulusBitCount + 7) / 8 }

    init(pkey: OpaquePointer, hasPrivateKey: Bool) throws {
        let bits = Int(EVP_PKEY_get_bits(pkey))
        guard EVP_PKEY_is_a(pkey, "RSA") == 1, Self.modulusBitRange.contains(bits) else {
            EVP_PKEY_free(pkey)
            throw BackendError.invalidParameter
        }
        self.pkey = pkey
        self.hasPrivateKey = hasPrivateKey
        modulusBitCount = bits
    }

    deinit { EVP_PKEY_free(pkey) }

    /// A new key pair with public exponent 65537.
    /// - Throws: `BackendError.incorrectKeySize` for a size outside `modulusBitRange`.
    package static func generate(bits: Int) throws -> RSAKey {
        guard modulusBitRange.contains(bits) else { throw BackendError.incorrectKeySize }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
            EVP_PKEY_generate(context, &pkey) == 1, let pkey
        else { throw OpenSSLErrorQueue.failure() }
        return try RSAKey(pkey: pkey, hasPrivateKey: true)
    }

    /// The public half of this key.
    package var publicKey: RSAKey {
        get throws {
            let der = try pkcs1PublicKey
            return try der.withUnsafeBytes { try RSAKey(pkcs1PublicKey: $0) }
        }
    }
}
