@_implementationOnly import COpenSSL

extension PKCS12Archive {
    /// `bytes` with its integrity check made anew under `passphrase` (HMAC-SHA-256, one iteration, a fixed salt so
    /// that a run repeats), or nil when
    /// they do not parse as a PKCS#12 file. For the pkcs12 fuzz target: a changed byte inside a file otherwise
    /// only ever meets a failing check, never the parsers of what the file holds.
    package static func resealed(_ bytes: [UInt8], passphrase: String) -> [UInt8]? {
        defer { OpenSSLEncoding.clearErrors() }
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            return d2i_PKCS12(nil, &cursor, buffer.count)
        }
        guard let archive = parsed else { return nil }
        defer { PKCS12_free(archive) }
        var salt = [UInt8](repeating: 0x53, count: 8)
        guard
            PKCS12_set_mac(archive, passphrase, Int32(passphrase.utf8.count), &salt, Int32(salt.count), 1, EVP_sha256())
                == 1
        else { return nil }
        return OpenSSLEncoding.der { i2d_PKCS12(archive, $0) }
    }
}
