import KeychainCrypto

@_implementationOnly import COpenSSL

extension ECKey {
    /// The public key as a DER SubjectPublicKeyInfo (RFC 5480).
    package var subjectPublicKeyInfo: [UInt8] {
        get throws {
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

    /// The key pair as a DER PKCS #8 PrivateKeyInfo (RFC 5208) holding a SEC 1 ECPrivateKey with its public key.
    /// The bytes are secret.
    package var pkcs8PrivateKeyInfo: SecureBytes {
        get throws {
            guard hasPrivateKey else { throw BackendError.invalidParameter }
            guard let info = EVP_PKEY2PKCS8(pkey) else { throw OpenSSLErrorQueue.failure() }
            defer { PKCS8_PRIV_KEY_INFO_free(info) }
            let length = i2d_PKCS8_PRIV_KEY_INFO(info, nil)
            guard length > 0 else { throw OpenSSLErrorQueue.failure() }
            return SecureBytes(count: Int(length)) { output in
                var cursor = output.bindMemory(to: UInt8.self).baseAddress
                _ = i2d_PKCS8_PRIV_KEY_INFO(info, &cursor)
            }
        }
    }

    /// A public key from a DER SubjectPublicKeyInfo naming `curve`.
    /// - Throws: `BackendError.invalidEncoding` when the DER does not parse, is not an EC key or names
    ///   another curve.
    package static func parsing(subjectPublicKeyInfo der: UnsafeRawBufferPointer, curve: ECCurve) throws -> ECKey {
        let parsed = try Self.parse(der) { cursor, length in d2i_PUBKEY(nil, &cursor, length) }
        defer { EVP_PKEY_free(parsed) }
        let point = try Self.octets(of: parsed, curve: curve, parameter: "pub")
        return try point.withUnsafeBytes { try ECKey(curve: curve, publicPoint: $0) }
    }

    /// A key pair from DER: PKCS #8 PrivateKeyInfo or SEC 1 ECPrivateKey (RFC 5915), naming `curve`.
    /// - Throws: `BackendError.invalidEncoding` when the DER does not parse, is not an EC key or names
    ///   another curve.
    package static func parsing(privateKeyDER der: UnsafeRawBufferPointer, curve: ECCurve) throws -> ECKey {
        let parsed = try Self.parse(der) { cursor, length in d2i_AutoPrivateKey(nil, &cursor, length) }
        defer { EVP_PKEY_free(parsed) }
        _ = try Self.octets(of: parsed, curve: curve, parameter: "pub")
        var scalar: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(parsed, "priv", &scalar) == 1, let scalar else {
            ERR_clear_error()
            throw BackendError.invalidEncoding
        }
        defer { BN_clear_free(scalar) }
        let size = curve.coordinateByteCount
        let bytes = SecureBytes(count: size) { output in
            _ = BN_bn2binpad(scalar, output.bindMemory(to: UInt8.self).baseAddress, Int32(size))
        }
        return try bytes.withUnsafeBytes { try ECKey(curve: curve, privateScalar: $0) }
    }

    /// Runs a `d2i_…` parser over all of `der`, failing on trailing bytes.
    private static func parse(
        _ der: UnsafeRawBufferPointer,
        _ parser: (inout UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    ) throws -> OpaquePointer {
        let start = der.bindMemory(to: UInt8.self).baseAddress
        var cursor: UnsafePointer<UInt8>? = start.map { UnsafePointer($0) }
        guard der.count > 0, let parsed = parser(&cursor, der.count) else {
            ERR_clear_error()
            throw BackendError.invalidEncoding
        }
        guard cursor == start.map({ UnsafePointer($0) + der.count }), EVP_PKEY_is_a(parsed, "EC") == 1 else {
            EVP_PKEY_free(parsed)
            throw BackendError.invalidEncoding
        }
        return parsed
    }

    /// An octet-string parameter of a parsed EC key, after checking that the key is on `curve`.
    private static func octets(of pkey: OpaquePointer, curve: ECCurve, parameter: String) throws -> [UInt8] {
        var name = [CChar](repeating: 0, count: 64)
        var nameLength = 0
        guard EVP_PKEY_get_group_name(pkey, &name, name.count, &nameLength) == 1,
            ECCurve(groupName: String(decoding: name[0..<nameLength].map { UInt8(bitPattern: $0) }, as: UTF8.self))
                == curve
        else {
            ERR_clear_error()
            throw BackendError.invalidEncoding
        }
        var output = [UInt8](repeating: 0, count: 1 + 2 * curve.coordinateByteCount)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(pkey, parameter, &output, output.count, &length) == 1 else {
            ERR_clear_error()
            throw BackendError.invalidEncoding
        }
        return Array(output[0..<length])
    }
}
