import KeychainCrypto

@_implementationOnly import COpenSSL

/// An X25519 (RFC 7748) or Ed25519 (RFC 8032) key in an `EVP_PKEY`, immutable once made.
package final class Curve25519Key: @unchecked Sendable {  // safe: the EVP_PKEY is never modified after init
    package enum Algorithm: Sendable {
        case x25519
        case ed25519

        var nid: Int32 { self == .x25519 ? NID_X25519 : NID_ED25519 }
    }

    package static let keyByteCount = 32
    package static let signatureByteCount = 64

    package let algorithm: Algorithm
    package let hasPrivateKey: Bool
    let pkey: OpaquePointer
    /// The 32-byte public key.
    package let publicKeyBytes: [UInt8]

    private init(algorithm: Algorithm, pkey: OpaquePointer, hasPrivateKey: Bool) throws {
        self.algorithm = algorithm
        self.pkey = pkey
        self.hasPrivateKey = hasPrivateKey
        var publicKey = [UInt8](repeating: 0, count: Self.keyByteCount)
        var length = publicKey.count
        guard EVP_PKEY_get_raw_public_key(pkey, &publicKey, &length) == 1, length == Self.keyByteCount else {
            EVP_PKEY_free(pkey)
            throw OpenSSLErrorQueue.failure()
        }
        publicKeyBytes = publicKey
    }

    deinit { EVP_PKEY_free(pkey) }

    /// A new random key.
    package static func generate(_ algorithm: Algorithm) throws -> Curve25519Key {
        let seed = try SystemRandom.key(keyByteCount)
        return try seed.withUnsafeBytes { try Curve25519Key(algorithm: algorithm, privateKey: $0) }
    }

    /// The key whose 32-byte private key (X25519 scalar or Ed25519 seed) is `privateKey`.
    /// - Throws: `BackendError.incorrectKeySize` for another length.
    package convenience init(algorithm: Algorithm, privateKey: UnsafeRawBufferPointer) throws {
        guard privateKey.count == Self.keyByteCount else { throw BackendError.incorrectKeySize }
        guard
            let pkey = EVP_PKEY_new_raw_private_key(
                algorithm.nid, nil, privateKey.bindMemory(to: UInt8.self).baseAddress, privateKey.count)
        else { throw OpenSSLErrorQueue.failure() }
        try self.init(algorithm: algorithm, pkey: pkey, hasPrivateKey: true)
    }

    /// The public key `publicKey` (32 bytes).
    /// - Throws: `BackendError.incorrectKeySize` for another length, `.invalidParameter` for an Ed25519 key
    ///   that is not a point on the curve.
    package convenience init(algorithm: Algorithm, publicKey: UnsafeRawBufferPointer) throws {
        guard publicKey.count == Self.keyByteCount else { throw BackendError.incorrectKeySize }
        guard
            let pkey = EVP_PKEY_new_raw_public_key(
                algorithm.nid, nil, publicKey.bindMemory(to: UInt8.self).baseAddress, publicKey.count)
        else {
            ERR_clear_error()
            throw BackendError.invalidParameter
        }
        try self.init(algorithm: algorithm, pkey: pkey, hasPrivateKey: false)
    }

    /// The public half of this key.
    package var publicKey: Curve25519Key {
        get throws { try publicKeyBytes.withUnsafeBytes { try Curve25519Key(algorithm: algorithm, publicKey: $0) } }
    }

    /// The 32-byte private key, in wiped-on-free memory.
    package var privateKeyBytes: SecureBytes {
        get throws {
            guard hasPrivateKey else { throw BackendError.invalidParameter }
            var failed = false
            let bytes = SecureBytes(count: Self.keyByteCount) { output in
                var length = output.count
                failed =
                    EVP_PKEY_get_raw_private_key(pkey, output.bindMemory(to: UInt8.self).baseAddress, &length)
                    != 1 || length != Self.keyByteCount
            }
            guard !failed else { throw OpenSSLErrorQueue.failure() }
            return bytes
        }
    }

    /// The Ed25519 signature of `message` (64 bytes, deterministic per RFC 8032).
    package func signature(for message: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard algorithm == .ed25519, hasPrivateKey else { throw BackendError.invalidParameter }
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_MD_CTX_free(context) }
        var signature = [UInt8](repeating: 0, count: Self.signatureByteCount)
        var length = signature.count
        guard EVP_DigestSignInit_ex(context, nil, nil, nil, nil, pkey, nil) == 1,
            EVP_DigestSign(
                context, &signature, &length, message.bindMemory(to: UInt8.self).baseAddress, message.count) == 1
        else { throw OpenSSLErrorQueue.failure() }
        return signature
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` under this key.
    package func isValidSignature(_ signature: UnsafeRawBufferPointer, for message: UnsafeRawBufferPointer) -> Bool {
        guard algorithm == .ed25519, signature.count == Self.signatureByteCount,
            let context = EVP_MD_CTX_new()
        else { return false }
        defer { EVP_MD_CTX_free(context) }
        let valid =
            EVP_DigestVerifyInit_ex(context, nil, nil, nil, nil, pkey, nil) == 1
            && EVP_DigestVerify(
                context, signature.bindMemory(to: UInt8.self).baseAddress, signature.count,
                message.bindMemory(to: UInt8.self).baseAddress, message.count) == 1
        if !valid { ERR_clear_error() }
        return valid
    }

    /// X25519 with `peer`'s public key.
    /// - Throws: a library failure when the result is all zeros (a small-order peer key).
    package func sharedSecret(with peer: Curve25519Key) throws -> SecureBytes {
        guard algorithm == .x25519, peer.algorithm == .x25519, hasPrivateKey else {
            throw BackendError.invalidParameter
        }
        return try PKeyDerivation.derive(pkey, peer: peer.pkey)
    }
}
