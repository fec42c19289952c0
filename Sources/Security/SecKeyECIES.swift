import CryptoKitOpenSSL
import Foundation
import KeychainCrypto

/// Apple's ECIES (`kSecKeyAlgorithmECIESEncryption…X963SHA…AESGCM`): ECDH between a fresh ephemeral key and the
/// recipient, the X9.63 KDF over the shared secret with the ephemeral public key (`04 ‖ X ‖ Y`) as shared info,
/// then AES-GCM with a 16-byte tag. The AES key is 16 bytes for curves up to 256 bits and 32 above; the IV is
/// 16 zero bytes, or with the VariableIV variants 16 more bytes of KDF output. The blob is ephemeral public key ‖
/// ciphertext ‖ tag. The cofactor variants are the same on these curves, whose cofactor is 1.
struct ECIES {
    static let tagByteCount = 16
    static let ivByteCount = 16

    let curve: ECCurve
    let variableIV: Bool
    let digest: DigestAlgorithm

    var aesKeyByteCount: Int { curve == .p256 ? 16 : 32 }

    /// The blob for `plaintext` to `recipient`.
    func seal(_ plaintext: Data, to recipient: ECKey) throws -> [UInt8] {
        guard let ephemeral = try? ECKey.generate(curve, compactRepresentable: false),
            let secret = try? ephemeral.sharedSecret(with: recipient)
        else { throw SecKeyError(errSecInternalComponent, "ECIES: ephemeral key agreement failed") }
        let (key, iv) = try keyAndIV(secret: secret, ephemeralPublicKey: ephemeral.publicPoint)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: Self.tagByteCount)
        do {
            try key.withUnsafeBytes { key in
                try iv.withUnsafeBytes { iv in
                    try plaintext.withUnsafeBytes { plaintext in
                        try ciphertext.withUnsafeMutableBytes { ciphertext in
                            try tag.withUnsafeMutableBytes { tag in
                                try AEAD.aesGCM.seal(
                                    key: key, nonce: iv, plaintext: plaintext,
                                    authenticating: UnsafeRawBufferPointer(start: nil, count: 0),
                                    ciphertext: ciphertext, tag: tag)
                            }
                        }
                    }
                }
            }
        } catch {
            throw SecKeyError.param("ECIES: Failed to aes-gcm encrypt data")
        }
        return ephemeral.publicPoint + ciphertext + tag
    }

    /// The plaintext of `blob` for the private key `recipient`.
    func open(_ blob: Data, with recipient: ECKey) throws -> SecureBytes {
        try open(blob) { ephemeral in
            guard let secret = try? recipient.sharedSecret(with: ephemeral) else {
                throw SecKeyError.param("ECIES: the ephemeral public key is not a point on the curve")
            }
            return secret
        }
    }

    /// The plaintext of `blob`, with `agree` computing the ECDH shared secret of the recipient's private key and
    /// the blob's ephemeral public key (a point checked to be on the curve): in OpenSSL for a key in the process,
    /// in the enclave for an enclave key. Its errors (a canceled prompt…) pass through unchanged.
    func open(_ blob: Data, agreeing agree: (_ ephemeral: ECKey) throws -> SecureBytes) throws -> SecureBytes {
        let pointByteCount = 1 + 2 * curve.coordinateByteCount
        guard blob.count >= pointByteCount else {
            throw SecKeyError.param("ECIES: too small input packet for ECIES decrypt")
        }
        let bytes = [UInt8](blob)
        let ephemeralPoint = Array(bytes[0..<pointByteCount])
        guard ephemeralPoint[0] == 0x04,
            let ephemeral = try? ephemeralPoint.withUnsafeBytes({ try ECKey(curve: curve, publicPoint: $0) })
        else { throw SecKeyError.param("ECIES: the ephemeral public key is not a point on the curve") }
        let secret = try agree(ephemeral)
        let body = bytes[pointByteCount...]
        guard body.count >= Self.tagByteCount else { throw SecKeyError.param("ECIES: Input data too short") }
        let ciphertext = Array(body.dropLast(Self.tagByteCount))
        let tag = Array(body.suffix(Self.tagByteCount))
        let (key, iv) = try keyAndIV(secret: secret, ephemeralPublicKey: ephemeralPoint)
        do {
            return try SecureBytes(count: ciphertext.count) { plaintext in
                try key.withUnsafeBytes { key in
                    try iv.withUnsafeBytes { iv in
                        try ciphertext.withUnsafeBytes { ciphertext in
                            try tag.withUnsafeBytes { tag in
                                try AEAD.aesGCM.open(
                                    key: key, nonce: iv, ciphertext: ciphertext, tag: tag,
                                    authenticating: UnsafeRawBufferPointer(start: nil, count: 0),
                                    plaintext: plaintext)
                            }
                        }
                    }
                }
            }
        } catch {
            throw SecKeyError.param("ECIES: Failed to aes-gcm decrypt data")
        }
    }

    /// The AES key and IV from the shared secret.
    func keyAndIV(secret: SecureBytes, ephemeralPublicKey: [UInt8]) throws -> (SecureBytes, [UInt8]) {
        let count = aesKeyByteCount + (variableIV ? Self.ivByteCount : 0)
        guard
            let derived = try? secret.withUnsafeBytes({ secret in
                try ephemeralPublicKey.withUnsafeBytes { info in
                    try X963KDF.derive(secret: secret, sharedInfo: info, byteCount: count, digest: digest)
                }
            })
        else { throw SecKeyError(errSecInternalComponent, "ECIES: the X9.63 KDF failed") }
        return derived.withUnsafeBytes { derived in
            let key = SecureBytes(UnsafeRawBufferPointer(rebasing: derived[0..<aesKeyByteCount]))
            let iv =
                variableIV
                ? [UInt8](derived[aesKeyByteCount...]) : [UInt8](repeating: 0, count: Self.ivByteCount)
            return (key, iv)
        }
    }
}
