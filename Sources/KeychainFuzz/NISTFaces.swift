import CryptoKit
import Foundation

/// One NIST curve's CryptoKit readers, as closures over bytes, so that the key-data target runs the same checks
/// on P-256, P-384 and P-521.
struct NISTFaces: Sendable {
    let name: String
    let publicX963: @Sendable ([UInt8]) throws -> PublicForms
    let publicDER: @Sendable ([UInt8]) throws -> PublicForms
    let publicPEM: @Sendable (String) throws -> PublicForms
    let publicRaw: @Sendable ([UInt8]) throws -> PublicForms
    let publicCompressed: @Sendable ([UInt8]) throws -> PublicForms
    let publicCompact: @Sendable ([UInt8]) throws -> PublicForms
    let privateX963: @Sendable ([UInt8]) throws -> PrivateForms
    let privateDER: @Sendable ([UInt8]) throws -> PrivateForms
    let privatePEM: @Sendable (String) throws -> PrivateForms
    let privateRaw: @Sendable ([UInt8]) throws -> PrivateForms
    /// An ECDSA signature's DER read and given back as `r ‖ s`.
    let signatureFromDER: @Sendable ([UInt8]) throws -> [UInt8]
    /// `r ‖ s` read and given back as DER.
    let derOfRawSignature: @Sendable ([UInt8]) throws -> [UInt8]

    static let p256 = NISTFaces("P-256", P256.Signing.PrivateKey.self)
    static let p384 = NISTFaces("P-384", P384.Signing.PrivateKey.self)
    static let p521 = NISTFaces("P-521", P521.Signing.PrivateKey.self)

    private init<Key: FuzzedPrivateKey>(_ name: String, _: Key.Type) {
        self.name = name
        publicX963 = { PublicForms(try Key.PublicKey(x963Representation: $0)) }
        publicDER = { PublicForms(try Key.PublicKey(derRepresentation: $0)) }
        publicPEM = { PublicForms(try Key.PublicKey(pemRepresentation: $0)) }
        publicRaw = { PublicForms(try Key.PublicKey(rawRepresentation: $0)) }
        publicCompressed = { PublicForms(try Key.PublicKey(compressedRepresentation: $0)) }
        publicCompact = { PublicForms(try Key.PublicKey(compactRepresentation: $0)) }
        privateX963 = { PrivateForms(try Key(x963Representation: $0)) }
        privateDER = { PrivateForms(try Key(derRepresentation: $0)) }
        privatePEM = { PrivateForms(try Key(pemRepresentation: $0)) }
        privateRaw = { PrivateForms(try Key(rawRepresentation: $0)) }
        signatureFromDER = { Array(try Key.PublicKey.Signature(derRepresentation: $0).rawRepresentation) }
        derOfRawSignature = { Array(try Key.PublicKey.Signature(rawRepresentation: $0).derRepresentation) }
    }
}

/// A public key in every form it gives, and its verifier of raw or DER signatures.
struct PublicForms: Sendable {
    let x963: Data
    let der: Data
    let pem: String
    let raw: Data
    let compressed: Data
    let compact: Data?
    let verify: @Sendable ([UInt8], Data) -> Bool

    init<Key: FuzzedPublicKey>(_ key: Key) {
        x963 = key.x963Representation
        der = key.derRepresentation
        pem = key.pemRepresentation
        raw = key.rawRepresentation
        compressed = key.compressedRepresentation
        compact = key.compactRepresentation
        verify = { bytes, message in
            guard
                let signature = (try? Key.Signature(rawRepresentation: bytes))
                    ?? (try? Key.Signature(derRepresentation: bytes))
            else { return false }
            return key.isValidSignature(signature, for: message)
        }
    }
}

/// A private key in every form it gives, its public key, and its signer (raw signatures).
struct PrivateForms: Sendable {
    let x963: Data
    let der: Data
    let pem: String
    let raw: Data
    let publicKey: PublicForms
    let sign: @Sendable (Data) throws -> Data

    init<Key: FuzzedPrivateKey>(_ key: Key) {
        x963 = key.x963Representation
        der = key.derRepresentation
        pem = key.pemRepresentation
        raw = key.rawRepresentation
        publicKey = PublicForms(key.publicKey)
        sign = { try key.signature(for: $0).rawRepresentation }
    }
}

/// What the key-data target uses of `P256.Signing.PublicKey` and its siblings.
protocol FuzzedPublicKey: Sendable {
    associatedtype Signature: FuzzedSignature
    init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws
    init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws where Bytes.Element == UInt8
    init(pemRepresentation: String) throws
    init<D: ContiguousBytes>(rawRepresentation: D) throws
    init<Bytes: ContiguousBytes>(compressedRepresentation: Bytes) throws
    init<Bytes: ContiguousBytes>(compactRepresentation: Bytes) throws
    var x963Representation: Data { get }
    var derRepresentation: Data { get }
    var pemRepresentation: String { get }
    var rawRepresentation: Data { get }
    var compressedRepresentation: Data { get }
    var compactRepresentation: Data? { get }
    func isValidSignature<D: DataProtocol>(_ signature: Signature, for data: D) -> Bool
}

protocol FuzzedSignature {
    init<D: DataProtocol>(rawRepresentation: D) throws
    init<D: DataProtocol>(derRepresentation: D) throws
    var rawRepresentation: Data { get }
    var derRepresentation: Data { get }
}

protocol FuzzedPrivateKey: Sendable {
    associatedtype PublicKey: FuzzedPublicKey
    init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws
    init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws where Bytes.Element == UInt8
    init(pemRepresentation: String) throws
    init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws
    var publicKey: PublicKey { get }
    var x963Representation: Data { get }
    var derRepresentation: Data { get }
    var pemRepresentation: String { get }
    var rawRepresentation: Data { get }
    func signature<D: DataProtocol>(for data: D) throws -> PublicKey.Signature
}

extension P256.Signing.PublicKey: FuzzedPublicKey { typealias Signature = P256.Signing.ECDSASignature }
extension P384.Signing.PublicKey: FuzzedPublicKey { typealias Signature = P384.Signing.ECDSASignature }
extension P521.Signing.PublicKey: FuzzedPublicKey { typealias Signature = P521.Signing.ECDSASignature }
extension P256.Signing.ECDSASignature: FuzzedSignature {}
extension P384.Signing.ECDSASignature: FuzzedSignature {}
extension P521.Signing.ECDSASignature: FuzzedSignature {}
extension P256.Signing.PrivateKey: FuzzedPrivateKey {}
extension P384.Signing.PrivateKey: FuzzedPrivateKey {}
extension P521.Signing.PrivateKey: FuzzedPrivateKey {}
