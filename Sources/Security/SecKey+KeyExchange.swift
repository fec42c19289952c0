import CryptoKitOpenSSL
import Foundation
import KeychainCrypto

/// ECDH between a private key and a public key on the same curve: the shared x coordinate, or with the X9.63
/// variants `kSecKeyKeyExchangeParameterRequestedSize` bytes of KDF output over it (with the optional
/// `SharedInfo`). The cofactor variants are the same on P-256, P-384 and P-521, whose cofactor is 1.
/// - Parameter error: receives `errSecParam` for a key or algorithm that does not fit, a public key on
///   another curve, or a missing or bad parameter.
public func SecKeyCopyKeyExchangeResult(
    _ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey, _ parameters: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    SecKeyError.reporting(error) {
        let plan = try KeyAlgorithmPlan.resolve(algorithm, key: privateKey, operation: .keyExchange)
        guard case .ecdh(_, let kdf) = plan, case .ec(let ours) = privateKey.material else {
            throw SecKeyError.param("\(algorithm.rawValue): algorithm not supported by the key \(privateKey)")
        }
        guard case .ec(let peer) = publicKey.material, peer.curve == ours.curve,
            let peerPublic = try? peer.publicKey
        else { throw SecKeyError.param("ECDHKeyExchange: the public key is not an EC key on the same curve") }
        let secret: SecureBytes
        if let enclave = privateKey.enclave {
            secret = try enclave.sharedSecret(peerPoint: peerPublic.publicPoint)
        } else {
            guard let computed = try? ours.sharedSecret(with: peerPublic) else {
                throw SecKeyError(errSecInternalComponent, "ECDHKeyExchange: the key agreement failed")
            }
            secret = computed
        }
        guard let kdf else { return secret.withUnsafeBytes { Data($0) } as NSData }
        let options = parameters as NSDictionary
        guard let size = options[SecKeyKeyExchangeParameter.requestedSize.rawValue] as? NSNumber, !size.isBoolean
        else { throw SecKeyError.param("kSecKeyKeyExchangeParameterRequestedSize is missing") }
        let sharedInfo: Data
        switch options[SecKeyKeyExchangeParameter.sharedInfo.rawValue] {
        case nil: sharedInfo = Data()
        case let data as Data: sharedInfo = data
        default: throw SecKeyError.param("ECDHKeyExchange wrong sharedInfo type (must be CFData/NSData)")
        }
        guard
            let derived = try? secret.withUnsafeBytes({ secret in
                try sharedInfo.withUnsafeBytes { info in
                    try X963KDF.derive(secret: secret, sharedInfo: info, byteCount: size.intValue, digest: kdf)
                }
            })
        else { throw SecKeyError.param("ECDHKeyExchange wrong input: requested size \(size.intValue)") }
        return derived.withUnsafeBytes { Data($0) } as NSData
    }
}
