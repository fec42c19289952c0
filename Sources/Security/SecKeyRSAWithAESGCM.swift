import CryptoKitOpenSSL
import Foundation
import KeychainCrypto

/// Apple's RSA hybrid encryption (`kSecKeyAlgorithmRSAEncryptionOAEPSHA…AESGCM`): a random AES key (16 bytes
/// for moduli under 4096 bits, 32 from 4096 on) wrapped with RSA OAEP over the named hash, then the data under
/// AES-GCM with 16 zero bytes as IV, the public key's PKCS #1 DER as additional data and a 16-byte tag. The blob is
/// wrapped key (as long as the modulus) ‖ ciphertext ‖ tag.
struct RSAWithAESGCM {
    static let tagByteCount = 16
    static let iv = [UInt8](repeating: 0, count: 16)

    let key: RSAKey
    let digest: DigestAlgorithm

    static func sessionKeyByteCount(modulusBitCount: Int) -> Int { modulusBitCount >= 4096 ? 32 : 16 }

    func seal(_ plaintext: NSData) throws -> [UInt8] {
        let count = Self.sessionKeyByteCount(modulusBitCount: key.modulusBitCount)
        guard let sessionKey = try? SystemRandom.key(count), let publicDER = try? key.pkcs1PublicKey,
            let wrapped = try? sessionKey.withUnsafeBytes({ try key.encrypt($0, padding: .oaep(digest)) })
        else { throw SecKeyError(errSecInternalComponent, "RSAWRAP: wrapping the session key failed") }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.length)
        var tag = [UInt8](repeating: 0, count: Self.tagByteCount)
        do {
            try sessionKey.withUnsafeBytes { sessionKey in
                try plaintext.withUnsafeRawBytes { plaintext in
                    try ciphertext.withUnsafeMutableBytes { ciphertext in
                        try tag.withUnsafeMutableBytes { tag in
                            try Self.iv.withUnsafeBytes { iv in
                                try publicDER.withUnsafeBytes { aad in
                                    try AEAD.aesGCM.seal(
                                        key: sessionKey, nonce: iv, plaintext: plaintext, authenticating: aad,
                                        ciphertext: ciphertext, tag: tag)
                                }
                            }
                        }
                    }
                }
            }
        } catch {
            throw SecKeyError.param("RSAWRAP: Failed to aes-gcm encrypt data")
        }
        return wrapped + ciphertext + tag
    }

    func open(_ blob: NSData) throws -> SecureBytes {
        let wrappedCount = key.modulusByteCount
        guard blob.length >= wrappedCount + Self.tagByteCount else {
            throw SecKeyError.param("RSA-WRAP too short input data")
        }
        let bytes = blob.byteArray
        guard
            let sessionKey = try? bytes[0..<wrappedCount].withUnsafeBytes({
                try key.decrypt($0, padding: .oaep(digest))
            })
        else { throw SecKeyError.param("RSAdecrypt wrong input") }
        guard sessionKey.count == Self.sessionKeyByteCount(modulusBitCount: key.modulusBitCount),
            let publicDER = try? key.pkcs1PublicKey
        else { throw SecKeyError.param("RSA-WRAP bad ciphertext, unexpected session key size") }
        let ciphertext = Array(bytes[wrappedCount..<(bytes.count - Self.tagByteCount)])
        let tag = Array(bytes.suffix(Self.tagByteCount))
        do {
            return try SecureBytes(count: ciphertext.count) { plaintext in
                try sessionKey.withUnsafeBytes { sessionKey in
                    try ciphertext.withUnsafeBytes { ciphertext in
                        try tag.withUnsafeBytes { tag in
                            try Self.iv.withUnsafeBytes { iv in
                                try publicDER.withUnsafeBytes { aad in
                                    try AEAD.aesGCM.open(
                                        key: sessionKey, nonce: iv, ciphertext: ciphertext, tag: tag,
                                        authenticating: aad, plaintext: plaintext)
                                }
                            }
                        }
                    }
                }
            }
        } catch {
            throw SecKeyError.param("RSA-WRAP: Failed to aes-gcm decrypt data")
        }
    }
}
