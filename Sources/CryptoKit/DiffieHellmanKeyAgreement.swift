/// A private key that agrees on a shared secret with another party's public key.
public protocol DiffieHellmanKeyAgreement: Sendable {
    /// The type of the other party's public key.
    associatedtype PublicKey: Sendable
    /// The corresponding public key.
    var publicKey: PublicKey { get }
    /// Agrees on a shared secret with `publicKeyShare`.
    /// - Parameter publicKeyShare: The other party's public key.
    /// - Returns: The shared secret.
    func sharedSecretFromKeyAgreement(with publicKeyShare: PublicKey) throws -> SharedSecret
}

extension P256.KeyAgreement.PrivateKey: DiffieHellmanKeyAgreement {}
extension P384.KeyAgreement.PrivateKey: DiffieHellmanKeyAgreement {}
extension P521.KeyAgreement.PrivateKey: DiffieHellmanKeyAgreement {}
extension Curve25519.KeyAgreement.PrivateKey: DiffieHellmanKeyAgreement {}
extension SecureEnclave.P256.KeyAgreement.PrivateKey: DiffieHellmanKeyAgreement {}
