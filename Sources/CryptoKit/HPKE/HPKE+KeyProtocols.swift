internal import CryptoKitOpenSSL

/// A public key that HPKE can encode into and decode from its wire form (`SerializePublicKey`).
public protocol HPKEPublicKeySerialization: Sendable {
    /// Decodes a public key of `kem` from its HPKE serialization.
    /// - Throws: `HPKE.Errors.inconsistentCiphersuiteAndKey` when the key type does not belong to `kem`.
    init<D: ContiguousBytes>(_ serialization: D, kem: HPKE.KEM) throws
    /// The HPKE serialization of the key for `kem`.
    /// - Throws: `HPKE.Errors.inconsistentCiphersuiteAndKey` when the key type does not belong to `kem`.
    func hpkeRepresentation(kem: HPKE.KEM) throws -> Data
}

/// A Diffie-Hellman public key HPKE can encapsulate to.
public protocol HPKEDiffieHellmanPublicKey: HPKEPublicKeySerialization where EphemeralPrivateKey.PublicKey == Self {
    /// The private key type of the sender's ephemeral key.
    associatedtype EphemeralPrivateKey: HPKEDiffieHellmanPrivateKeyGeneration
}

/// A Diffie-Hellman private key HPKE can decapsulate with.
public protocol HPKEDiffieHellmanPrivateKey: DiffieHellmanKeyAgreement where PublicKey: HPKEDiffieHellmanPublicKey {}

/// A Diffie-Hellman private key HPKE can generate (for the sender's ephemeral key).
public protocol HPKEDiffieHellmanPrivateKeyGeneration: HPKEDiffieHellmanPrivateKey {
    /// A new random key.
    init()
}

extension P256.KeyAgreement.PublicKey: HPKEDiffieHellmanPublicKey {
    public typealias EphemeralPrivateKey = P256.KeyAgreement.PrivateKey

    /// Decodes an uncompressed point (`04 ‖ x ‖ y`) for DHKEM(P-256).
    public init<D: ContiguousBytes>(_ serialization: D, kem: HPKE.KEM) throws {
        guard kem == .P256_HKDF_SHA256 else { throw HPKE.Errors.inconsistentCiphersuiteAndKey }
        try self.init(x963Representation: serialization)
    }

    /// The uncompressed point (`04 ‖ x ‖ y`).
    public func hpkeRepresentation(kem: HPKE.KEM) throws -> Data {
        guard kem == .P256_HKDF_SHA256 else { throw HPKE.Errors.inconsistentCiphersuiteAndKey }
        return x963Representation
    }
}

extension P384.KeyAgreement.PublicKey: HPKEDiffieHellmanPublicKey {
    public typealias EphemeralPrivateKey = P384.KeyAgreement.PrivateKey

    /// Decodes an uncompressed point (`04 ‖ x ‖ y`) for DHKEM(P-384).
    public init<D: ContiguousBytes>(_ serialization: D, kem: HPKE.KEM) throws {
        guard kem == .P384_HKDF_SHA384 else { throw HPKE.Errors.inconsistentCiphersuiteAndKey }
        try self.init(x963Representation: serialization)
    }

    /// The uncompressed point (`04 ‖ x ‖ y`).
    public func hpkeRepresentation(kem: HPKE.KEM) throws -> Data {
        guard kem == .P384_HKDF_SHA384 else { throw HPKE.Errors.inconsistentCiphersuiteAndKey }
        return x963Representation
    }
}

extension P521.KeyAgreement.PublicKey: HPKEDiffieHellmanPublicKey {
    public typealias EphemeralPrivateKey = P521.KeyAgreement.PrivateKey

    /// Decodes an uncompressed point (`04 ‖ x ‖ y`) for DHKEM(P-521).
    public init<D: ContiguousBytes>(_ serialization: D, kem: HPKE.KEM) throws {
        guard kem == .P521_HKDF_SHA512 else { throw HPKE.Errors.inconsistentCiphersuiteAndKey }
        try self.init(x963Representation: serialization)
    }

    /// The uncompressed point (`04 ‖ x ‖ y`).
    public func hpkeRepresentation(kem: HPKE.KEM) throws -> Data {
        guard kem == .P521_HKDF_SHA512 else { throw HPKE.Errors.inconsistentCiphersuiteAndKey }
        return x963Representation
    }
}

extension Curve25519.KeyAgreement.PublicKey: HPKEDiffieHellmanPublicKey {
    public typealias EphemeralPrivateKey = Curve25519.KeyAgreement.PrivateKey

    /// Decodes the 32 raw bytes for DHKEM(X25519).
    public init<D: ContiguousBytes>(_ serialization: D, kem: HPKE.KEM) throws {
        guard kem == .Curve25519_HKDF_SHA256 else { throw HPKE.Errors.inconsistentCiphersuiteAndKey }
        try self.init(rawRepresentation: serialization)
    }

    /// The 32 raw bytes.
    public func hpkeRepresentation(kem: HPKE.KEM) throws -> Data {
        guard kem == .Curve25519_HKDF_SHA256 else { throw HPKE.Errors.inconsistentCiphersuiteAndKey }
        return rawRepresentation
    }
}

extension P256.KeyAgreement.PrivateKey: HPKEDiffieHellmanPrivateKeyGeneration {
    /// A new random key, compact-representable as Apple's default.
    public init() { self.init(compactRepresentable: true) }
}

extension P384.KeyAgreement.PrivateKey: HPKEDiffieHellmanPrivateKeyGeneration {
    /// A new random key, compact-representable as Apple's default.
    public init() { self.init(compactRepresentable: true) }
}

extension P521.KeyAgreement.PrivateKey: HPKEDiffieHellmanPrivateKeyGeneration {
    /// A new random key, compact-representable as Apple's default.
    public init() { self.init(compactRepresentable: true) }
}

extension Curve25519.KeyAgreement.PrivateKey: HPKEDiffieHellmanPrivateKeyGeneration {}
/// An enclave key can be an HPKE recipient (DHKEM(P-256)): its half of the key agreement runs in the enclave.
extension SecureEnclave.P256.KeyAgreement.PrivateKey: HPKEDiffieHellmanPrivateKey {}
