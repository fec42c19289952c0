import CryptoKitOpenSSL
import Foundation
import KeychainCrypto

/// Encrypts `plaintext` with a public key: RSA (raw, PKCS #1 v1.5, OAEP, OAEP with AES-GCM) or ECIES (ephemeral
/// public key ‖ AES-GCM ciphertext ‖ 16-byte tag).
/// - Parameter error: receives `errSecParam` when the algorithm does not fit the key or the plaintext is too
///   long for the padding.
public func SecKeyCreateEncryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    SecKeyError.reporting(error) {
        let plan = try KeyAlgorithmPlan.resolve(algorithm, key: key, operation: .encrypt)
        switch (plan, key.material) {
        case (.rsaEncryption(let padding), .rsa(let rsa)):
            do {
                return Data(try (plaintext as Data).withUnsafeBytes { try rsa.encrypt($0, padding: padding) })
                    as NSData
            } catch {
                throw SecKeyError.param("RSAencrypt wrong input size")
            }
        case (.rsaEncryptionAESGCM(let digest), .rsa(let rsa)):
            return NSData.copying(try RSAWithAESGCM(key: rsa, digest: digest).seal(plaintext))
        case (.ecies(_, let variableIV, let digest), .ec(let recipient)):
            let ecies = ECIES(curve: recipient.curve, variableIV: variableIV, digest: digest)
            return Data(try ecies.seal(plaintext as Data, to: recipient)) as NSData
        default:
            throw SecKeyError.param("\(algorithm.rawValue): algorithm not supported by the key \(key)")
        }
    }
}

/// Decrypts `ciphertext` with a private key, the inverse of `SecKeyCreateEncryptedData`; with an RSA public key and
/// `rsaEncryptionRaw`, the raw public operation (s^e mod n, as long as the modulus), as Apple's keys run it.
/// - Parameter error: receives `errSecParam` when the algorithm does not fit the key or the ciphertext does not
///   decrypt (wrong key, altered bytes, bad padding, a raw input not below the modulus).
public func SecKeyCreateDecryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    SecKeyError.reporting(error) {
        let plan = try KeyAlgorithmPlan.resolve(algorithm, key: key, operation: .decrypt)
        switch (plan, key.material) {
        case (.rsaEncryption(.none), .rsa(let rsa)) where !key.isPrivate:
            // The public operation is the raw encryption's: the input, read as a number, must be below the modulus.
            guard let value = try? (ciphertext as Data).withUnsafeBytes({ try rsa.encrypt($0, padding: .none) })
            else { throw SecKeyError.param("RSA public key raw decryption: the input is not below the modulus") }
            return Data(value) as NSData
        case (.rsaEncryption(let padding), .rsa(let rsa)):
            guard let plaintext = try? (ciphertext as Data).withUnsafeBytes({ try rsa.decrypt($0, padding: padding) })
            else { throw SecKeyError.param("RSAdecrypt wrong input") }
            return plaintext.withUnsafeBytes { Data($0) } as NSData
        case (.rsaEncryptionAESGCM(let digest), .rsa(let rsa)):
            return try RSAWithAESGCM(key: rsa, digest: digest).open(ciphertext).withUnsafeBytes { NSData.copying($0) }
        case (.ecies(_, let variableIV, let digest), .ec(let ec)):
            let ecies = ECIES(curve: ec.curve, variableIV: variableIV, digest: digest)
            let plaintext: SecureBytes
            if let enclave = key.enclave {
                // The ECDH step runs in the enclave, after what the key's access control asks for.
                plaintext = try ecies.open(ciphertext as Data) { try enclave.sharedSecret(peerPoint: $0.publicPoint) }
            } else {
                plaintext = try ecies.open(ciphertext as Data, with: ec)
            }
            return plaintext.withUnsafeBytes { Data($0) } as NSData
        default:
            throw SecKeyError.param("\(algorithm.rawValue): algorithm not supported by the key \(key)")
        }
    }
}
