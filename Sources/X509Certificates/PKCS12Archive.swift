import KeychainCrypto

@_implementationOnly import COpenSSL

/// What a PKCS#12 file holds: one private key and its certificate, the other certificates, and the bag
/// attributes Apple reports (`kSecImportItemLabel`, `kSecImportItemKeyID`).
package struct PKCS12Contents: Sendable {
    /// The private key as PKCS#8 PrivateKeyInfo DER, in a buffer that is wiped when freed.
    package let privateKey: SecureBytes?
    /// The certificate that goes with the private key.
    package let certificate: X509Certificate?
    /// The other certificates, in the file's order.
    package let chain: [X509Certificate]
    /// The friendlyName bag attribute of the key's certificate.
    package let friendlyName: String?
    /// The localKeyId bag attribute of the key's certificate.
    package let localKeyID: [UInt8]?
}

/// Reads PKCS#12 files as `openssl pkcs12 -export` writes them: the default AES-256-CBC/PBKDF2 (PBES2) files
/// of OpenSSL 3 and the `-legacy` RC2/3DES ones (which need OpenSSL's legacy provider, loaded here once).
package enum PKCS12Archive {
    /// Opens `bytes` with `passphrase`.
    /// - Throws: `X509Error.wrongPassphrase` when the integrity check fails, `.malformed` when the bytes are not
    ///   PKCS#12, their contents do not decrypt and parse, or they ask for more key-derivation iterations than
    ///   `PKCS12Iterations.maximum`.
    package static func open(_ bytes: [UInt8], passphrase: String) throws(X509Error) -> PKCS12Contents {
        LegacyAlgorithms.enable()
        defer { OpenSSLEncoding.clearErrors() }
        var consumed = 0
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let archive = d2i_PKCS12(nil, &cursor, buffer.count)
            consumed = cursor.map { $0 - base } ?? 0
            return archive
        }
        guard let archive = parsed else { throw .malformed("the data is not a PKCS#12 file") }
        defer { PKCS12_free(archive) }
        guard consumed == bytes.count else {
            throw .malformed("the data has \(bytes.count - consumed) bytes after the PKCS#12 file")
        }
        // The iteration counts are bounded before any key derivation, the MAC's included.
        guard let safes = PKCS12_unpack_authsafes(archive) else { throw undecryptable }
        defer { kossl_pkcs7_stack_free_all(safes) }
        var iterations = PKCS12Iterations()
        try iterations.addUnencrypted(archive, safes: safes)
        let opening = try openingPassphrase(archive, passphrase)
        try iterations.addEncrypted(safes, passphrase: opening)
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var others: OpaquePointer?
        guard PKCS12_parse(archive, passphrase, &key, &certificate, &others) == 1 else { throw undecryptable }
        defer {
            EVP_PKEY_free(key)
            X509_free(certificate)
            if let others { kossl_x509_stack_free_all(others) }
        }
        return PKCS12Contents(
            privateKey: try key.map { key throws(X509Error) in try pkcs8(key) },
            certificate: try certificate.map { certificate throws(X509Error) in try copy(certificate) },
            chain: try chain(others),
            friendlyName: certificate.flatMap(friendlyName),
            localKeyID: certificate.flatMap(localKeyID))
    }

    static let undecryptable = X509Error.malformed(
        "the PKCS#12 contents do not decrypt or parse (an unsupported algorithm?)")

    /// Checks the MAC; answers the passphrase the contents decrypt with. OpenSSL's own rule for an empty one
    /// (PKCS12_parse's): no passphrase at all when there is no MAC or the MAC was made so, else "".
    private static func openingPassphrase(_ archive: OpaquePointer, _ passphrase: String) throws(X509Error)
        -> String?
    {
        guard PKCS12_mac_present(archive) == 1 else { return passphrase.isEmpty ? nil : passphrase }
        if passphrase.isEmpty && PKCS12_verify_mac(archive, nil, 0) == 1 { return nil }
        guard PKCS12_verify_mac(archive, passphrase, Int32(passphrase.utf8.count)) == 1 else {
            throw .wrongPassphrase
        }
        return passphrase
    }

    private static func pkcs8(_ key: OpaquePointer) throws(X509Error) -> SecureBytes {
        guard let info = EVP_PKEY2PKCS8(key) else { throw .library("EVP_PKEY2PKCS8") }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        let length = i2d_PKCS8_PRIV_KEY_INFO(info, nil)
        guard length > 0 else { throw .library("i2d_PKCS8_PRIV_KEY_INFO") }
        var written: Int32 = 0
        let bytes = SecureBytes(count: Int(length)) { buffer in
            var cursor = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
            written = i2d_PKCS8_PRIV_KEY_INFO(info, &cursor)
        }
        guard written == length else { throw .library("i2d_PKCS8_PRIV_KEY_INFO") }
        return bytes
    }

    private static func copy(_ certificate: OpaquePointer) throws(X509Error) -> X509Certificate {
        guard let der = OpenSSLEncoding.der({ i2d_X509(certificate, $0) }) else { throw .library("i2d_X509") }
        return try X509Certificate(der: der)
    }

    private static func chain(_ stack: OpaquePointer?) throws(X509Error) -> [X509Certificate] {
        guard let stack else { return [] }
        var result: [X509Certificate] = []
        for index in 0..<kossl_x509_stack_count(stack) {
            guard let certificate = kossl_x509_stack_value(stack, index) else { continue }
            result.append(try copy(certificate))
        }
        return result
    }

    private static func friendlyName(_ certificate: OpaquePointer) -> String? {
        var length: Int32 = 0
        guard let alias = X509_alias_get0(certificate, &length), length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: alias, count: Int(length)), as: UTF8.self)
    }

    private static func localKeyID(_ certificate: OpaquePointer) -> [UInt8]? {
        var length: Int32 = 0
        guard let identifier = X509_keyid_get0(certificate, &length), length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: identifier, count: Int(length)))
    }
}

/// OpenSSL 3 moved RC2, RC4 and single DES into its legacy provider; `-legacy` PKCS#12 files use RC2-40.
/// Loading a provider by hand stops the automatic loading of the default one, so both are loaded, once, and
/// kept for the life of the process.
private enum LegacyAlgorithms {
    private static let loaded: Bool = {
        let loaded = OSSL_PROVIDER_load(nil, "default") != nil && OSSL_PROVIDER_load(nil, "legacy") != nil
        ERR_clear_error()
        return loaded
    }()

    static func enable() { _ = loaded }
}
