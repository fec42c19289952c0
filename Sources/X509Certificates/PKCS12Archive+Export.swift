import KeychainCrypto

@_implementationOnly import COpenSSL

extension PKCS12Archive {
    /// Writes a PKCS#12 file as `openssl pkcs12 -export` does by default in OpenSSL 3: the key shrouded and the
    /// certificates encrypted with PBES2 (PBKDF2, AES-256-CBC), an HMAC-SHA-256 integrity check; the key's
    /// certificate carries `friendlyName` and a `localKeyId` (the SHA-1 of its DER, as OpenSSL sets it).
    /// - Parameters:
    ///   - privateKey: PKCS #8 PrivateKeyInfo DER, or nil for a file of certificates only.
    ///   - certificate: the key's certificate (required with a key).
    ///   - chain: other certificates.
    /// - Throws: `X509Error.malformed` for a key that does not parse or does not match the certificate,
    ///   `.library` when OpenSSL fails.
    package static func export(
        privateKey: SecureBytes?, certificate: X509Certificate?, chain: [X509Certificate], friendlyName: String?,
        passphrase: String
    ) throws(X509Error) -> [UInt8] {
        defer { OpenSSLEncoding.clearErrors() }
        var key: OpaquePointer?
        defer { EVP_PKEY_free(key) }
        if let privateKey {
            key = privateKey.withUnsafeBytes { bytes -> OpaquePointer? in
                guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return nil }
                var cursor: UnsafePointer<UInt8>? = base
                guard let info = d2i_PKCS8_PRIV_KEY_INFO(nil, &cursor, bytes.count) else { return nil }
                defer { PKCS8_PRIV_KEY_INFO_free(info) }
                return EVP_PKCS82PKEY(info)
            }
            guard let key else { throw .malformed("the private key is not PKCS #8 DER") }
            guard let certificate else { throw .malformed("a private key needs its certificate") }
            guard X509_check_private_key(certificate.handle, key) == 1 else {
                throw .malformed("the private key does not belong to the certificate")
            }
        }
        guard let others = kossl_x509_stack_new() else { throw .library("sk_X509_new_null") }
        // The stack does not own the certificates: each X509Certificate frees its own.
        defer { kossl_x509_stack_free(others) }
        for member in chain where kossl_x509_stack_push(others, member.handle) == 0 {
            throw .library("sk_X509_push")
        }
        // nid 0 and iterations 0 choose OpenSSL's defaults (PBES2 AES-256-CBC, 2048 rounds); -1 as the MAC
        // iteration count keeps OpenSSL's too. The localKeyId is the key certificate's SHA-1.
        let archive = PKCS12_create(
            passphrase, friendlyName, key, certificate?.handle, others, 0, 0, 0, 0, 0)
        guard let archive else { throw .library("PKCS12_create") }
        defer { PKCS12_free(archive) }
        guard let der = OpenSSLEncoding.der({ i2d_PKCS12(archive, $0) }) else { throw .library("i2d_PKCS12") }
        return der
    }
}
