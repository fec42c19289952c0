// Generated from scripts/templates/NISTCurve.swift.in by scripts/generate-nist-curves.sh: edit the template.

internal import CryptoKitOpenSSL

/// The NIST P-384 (secp384r1) curve: ECDSA signing (with SHA384) and ECDH key agreement.
public enum P384: Sendable {
    /// ECDSA keys and signatures on P-384.
    public enum Signing: Sendable {}
    /// ECDH keys on P-384.
    public enum KeyAgreement: Sendable {}
}

extension P384.Signing {
    /// A P-384 public key that verifies ECDSA signatures.
    public struct PublicKey: Sendable {
        let impl: NISTPublicKey

        init(impl: NISTPublicKey) { self.impl = impl }

        /// A public key from its raw representation, `x ‖ y`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.invalidParameter` for a point
        ///   not on the curve.
        public init<D: ContiguousBytes>(rawRepresentation: D) throws {
            impl = try NISTPublicKey(curve: .p384, rawRepresentation: rawRepresentation)
        }

        /// A public key from its compact representation, `x` alone.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.invalidParameter` when no point
        ///   has that x.
        public init<Bytes: ContiguousBytes>(compactRepresentation: Bytes) throws {
            impl = try NISTPublicKey(curve: .p384, compactRepresentation: compactRepresentation)
        }

        /// A public key from its ANSI X9.63 representation, `04 ‖ x ‖ y`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.incorrectKeySize` for another
        ///   leading byte, `.invalidParameter` for a point not on the curve.
        public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
            impl = try NISTPublicKey(curve: .p384, x963Representation: x963Representation)
        }

        /// A public key from its compressed representation, `02/03 ‖ x`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.incorrectKeySize` for another
        ///   leading byte, `.invalidParameter` for a point not on the curve.
        public init<Bytes: ContiguousBytes>(compressedRepresentation: Bytes) throws {
            impl = try NISTPublicKey(curve: .p384, compressedRepresentation: compressedRepresentation)
        }

        /// A public key from a PEM `PUBLIC KEY` document (SubjectPublicKeyInfo).
        /// - Throws: `CryptoKitASN1Error.invalidPEMDocument` or `.invalidASN1Object`.
        public init(pemRepresentation: String) throws {
            impl = try NISTPublicKey(curve: .p384, pemRepresentation: pemRepresentation)
        }

        /// A public key from a DER SubjectPublicKeyInfo (RFC 5480), read strictly as DER.
        /// - Throws: a `CryptoKitASN1Error` when it does not parse; for its point, the errors of
        ///   `init(x963Representation:)` (a key of another curve: `CryptoKitError.incorrectParameterSize`).
        public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws where Bytes.Element == UInt8 {
            impl = try NISTPublicKey(curve: .p384, derRepresentation: derRepresentation)
        }

        /// `x` alone, when the key is compact-representable (its y is the smaller candidate); otherwise nil.
        public var compactRepresentation: Data? { impl.compactRepresentation }
        /// `x ‖ y`.
        public var rawRepresentation: Data { impl.rawRepresentation }
        /// `04 ‖ x ‖ y` (ANSI X9.63).
        public var x963Representation: Data { impl.x963Representation }
        /// `02/03 ‖ x`.
        public var compressedRepresentation: Data { impl.compressedRepresentation }
        /// The DER SubjectPublicKeyInfo (RFC 5480).
        public var derRepresentation: Data { impl.derRepresentation }
        /// The PEM `PUBLIC KEY` document.
        public var pemRepresentation: String { impl.pemRepresentation }

        /// Whether `signature` signs `digest`.
        /// - Parameters:
        ///   - signature: The signature.
        ///   - digest: The digest that was signed.
        /// - Returns: `true` when the signature is valid.
        public func isValidSignature<D: Digest>(_ signature: P384.Signing.ECDSASignature, for digest: D) -> Bool {
            impl.isValidSignature(rawSignature: signature.impl.raw, digest: digest)
        }

        /// Whether `signature` signs the SHA384 digest of `data`.
        /// - Parameters:
        ///   - signature: The signature.
        ///   - data: The data that was signed.
        /// - Returns: `true` when the signature is valid.
        public func isValidSignature<D: DataProtocol>(_ signature: P384.Signing.ECDSASignature, for data: D) -> Bool {
            isValidSignature(signature, for: SHA384.hash(data: data))
        }
    }

    /// A P-384 private key that makes ECDSA signatures.
    public struct PrivateKey: Sendable {
        let impl: NISTPrivateKey

        /// A new random key. With `compactRepresentable` (the default), its public key has a compact
        /// representation.
        /// - Parameter compactRepresentable: Whether the public key must be compact-representable.
        public init(compactRepresentable: Bool = true) {
            impl = NISTPrivateKey(curve: .p384, compactRepresentable: compactRepresentable)
        }

        /// A key from its ANSI X9.63 representation, `04 ‖ x ‖ y ‖ d`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.incorrectKeySize` for another
        ///   leading byte, `.invalidParameter` when the point is not the scalar's.
        public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
            impl = try NISTPrivateKey(curve: .p384, x963Representation: x963Representation)
        }

        /// A key from its raw representation, the scalar `d`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.invalidParameter` for 0 or a
        ///   scalar not below the group order.
        public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws {
            impl = try NISTPrivateKey(curve: .p384, rawRepresentation: rawRepresentation)
        }

        /// A key from a PEM `PRIVATE KEY` (PKCS #8) or `EC PRIVATE KEY` (SEC 1) document.
        /// - Throws: `CryptoKitASN1Error.invalidPEMDocument` or `.invalidASN1Object`.
        public init(pemRepresentation: String) throws {
            impl = try NISTPrivateKey(curve: .p384, pemRepresentation: pemRepresentation)
        }

        /// A key from DER: PKCS #8 PrivateKeyInfo or SEC 1 ECPrivateKey, read strictly as DER.
        /// - Throws: a `CryptoKitASN1Error` when neither parses (SEC 1's); for the scalar, the errors of
        ///   `init(rawRepresentation:)` (another curve's, or a scalar not padded to the curve's size:
        ///   `CryptoKitError.incorrectParameterSize`).
        public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws where Bytes.Element == UInt8 {
            impl = try NISTPrivateKey(curve: .p384, derRepresentation: derRepresentation)
        }

        /// The corresponding public key.
        public var publicKey: P384.Signing.PublicKey { PublicKey(impl: impl.publicKey) }
        /// The scalar `d`.
        public var rawRepresentation: Data { impl.rawRepresentation }
        /// `04 ‖ x ‖ y ‖ d` (ANSI X9.63).
        public var x963Representation: Data { impl.x963Representation }
        /// The DER PKCS #8 PrivateKeyInfo.
        public var derRepresentation: Data { impl.derRepresentation }
        /// The PEM `PRIVATE KEY` document (PKCS #8).
        public var pemRepresentation: String { impl.pemRepresentation }

        /// Signs `digest`. Signatures are randomized: two signatures of the same digest differ.
        /// - Parameter digest: The digest to sign.
        /// - Returns: The signature.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError` when OpenSSL fails.
        public func signature<D: Digest>(for digest: D) throws -> P384.Signing.ECDSASignature {
            ECDSASignature(impl: NISTSignature(raw: try impl.rawSignature(digest: digest)))
        }

        /// Signs the SHA384 digest of `data`.
        /// - Parameter data: The data to sign.
        /// - Returns: The signature.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError` when OpenSSL fails.
        public func signature<D: DataProtocol>(for data: D) throws -> P384.Signing.ECDSASignature {
            try signature(for: SHA384.hash(data: data))
        }
    }

    /// An ECDSA signature on P-384: raw `r ‖ s` (96 bytes) or DER.
    public struct ECDSASignature: ContiguousBytes, Sendable {
        let impl: NISTSignature

        init(impl: NISTSignature) { self.impl = impl }

        /// A signature from `r ‖ s`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a length other than 96 bytes.
        public init<D: DataProtocol>(rawRepresentation: D) throws {
            impl = try NISTSignature(curve: .p384, rawRepresentation: rawRepresentation)
        }

        /// A signature from its DER encoding (`ECDSA-Sig-Value`); BER forms are refused.
        /// - Throws: a `CryptoKitASN1Error` when it does not parse as DER (`.unsupportedFieldLength` for a
        ///   long-form length DER forbids, `.invalidASN1IntegerEncoding` for a non-minimal integer).
        public init<D: DataProtocol>(derRepresentation: D) throws {
            impl = try NISTSignature(curve: .p384, derRepresentation: derRepresentation)
        }

        /// `r ‖ s`.
        public var rawRepresentation: Data { impl.raw }
        /// The DER encoding (`ECDSA-Sig-Value`).
        public var derRepresentation: Data { impl.derRepresentation(curve: .p384) }

        /// Calls `body` with the raw representation's bytes.
        public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try impl.raw.withUnsafeBytes(body)
        }
    }
}

extension P384.KeyAgreement {
    /// A P-384 public key for ECDH.
    public struct PublicKey: Sendable {
        let impl: NISTPublicKey

        init(impl: NISTPublicKey) { self.impl = impl }

        /// A public key from its raw representation, `x ‖ y`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.invalidParameter` for a point
        ///   not on the curve.
        public init<D: ContiguousBytes>(rawRepresentation: D) throws {
            impl = try NISTPublicKey(curve: .p384, rawRepresentation: rawRepresentation)
        }

        /// A public key from its compact representation, `x` alone.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.invalidParameter` when no point
        ///   has that x.
        public init<Bytes: ContiguousBytes>(compactRepresentation: Bytes) throws {
            impl = try NISTPublicKey(curve: .p384, compactRepresentation: compactRepresentation)
        }

        /// A public key from its ANSI X9.63 representation, `04 ‖ x ‖ y`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.incorrectKeySize` for another
        ///   leading byte, `.invalidParameter` for a point not on the curve.
        public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
            impl = try NISTPublicKey(curve: .p384, x963Representation: x963Representation)
        }

        /// A public key from its compressed representation, `02/03 ‖ x`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.incorrectKeySize` for another
        ///   leading byte, `.invalidParameter` for a point not on the curve.
        public init<Bytes: ContiguousBytes>(compressedRepresentation: Bytes) throws {
            impl = try NISTPublicKey(curve: .p384, compressedRepresentation: compressedRepresentation)
        }

        /// A public key from a PEM `PUBLIC KEY` document (SubjectPublicKeyInfo).
        /// - Throws: `CryptoKitASN1Error.invalidPEMDocument` or `.invalidASN1Object`.
        public init(pemRepresentation: String) throws {
            impl = try NISTPublicKey(curve: .p384, pemRepresentation: pemRepresentation)
        }

        /// A public key from a DER SubjectPublicKeyInfo (RFC 5480), read strictly as DER.
        /// - Throws: a `CryptoKitASN1Error` when it does not parse; for its point, the errors of
        ///   `init(x963Representation:)` (a key of another curve: `CryptoKitError.incorrectParameterSize`).
        public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws where Bytes.Element == UInt8 {
            impl = try NISTPublicKey(curve: .p384, derRepresentation: derRepresentation)
        }

        /// `x` alone, when the key is compact-representable (its y is the smaller candidate); otherwise nil.
        public var compactRepresentation: Data? { impl.compactRepresentation }
        /// `x ‖ y`.
        public var rawRepresentation: Data { impl.rawRepresentation }
        /// `04 ‖ x ‖ y` (ANSI X9.63).
        public var x963Representation: Data { impl.x963Representation }
        /// `02/03 ‖ x`.
        public var compressedRepresentation: Data { impl.compressedRepresentation }
        /// The DER SubjectPublicKeyInfo (RFC 5480).
        public var derRepresentation: Data { impl.derRepresentation }
        /// The PEM `PUBLIC KEY` document.
        public var pemRepresentation: String { impl.pemRepresentation }
    }

    /// A P-384 private key for ECDH.
    public struct PrivateKey: Sendable {
        let impl: NISTPrivateKey

        /// A new random key. With `compactRepresentable` (the default), its public key has a compact
        /// representation.
        /// - Parameter compactRepresentable: Whether the public key must be compact-representable.
        public init(compactRepresentable: Bool = true) {
            impl = NISTPrivateKey(curve: .p384, compactRepresentable: compactRepresentable)
        }

        /// A key from its ANSI X9.63 representation, `04 ‖ x ‖ y ‖ d`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.incorrectKeySize` for another
        ///   leading byte, `.invalidParameter` when the point is not the scalar's.
        public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
            impl = try NISTPrivateKey(curve: .p384, x963Representation: x963Representation)
        }

        /// A key from its raw representation, the scalar `d`.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a wrong length, `.invalidParameter` for 0 or a
        ///   scalar not below the group order.
        public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws {
            impl = try NISTPrivateKey(curve: .p384, rawRepresentation: rawRepresentation)
        }

        /// A key from a PEM `PRIVATE KEY` (PKCS #8) or `EC PRIVATE KEY` (SEC 1) document.
        /// - Throws: `CryptoKitASN1Error.invalidPEMDocument` or `.invalidASN1Object`.
        public init(pemRepresentation: String) throws {
            impl = try NISTPrivateKey(curve: .p384, pemRepresentation: pemRepresentation)
        }

        /// A key from DER: PKCS #8 PrivateKeyInfo or SEC 1 ECPrivateKey, read strictly as DER.
        /// - Throws: a `CryptoKitASN1Error` when neither parses (SEC 1's); for the scalar, the errors of
        ///   `init(rawRepresentation:)` (another curve's, or a scalar not padded to the curve's size:
        ///   `CryptoKitError.incorrectParameterSize`).
        public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws where Bytes.Element == UInt8 {
            impl = try NISTPrivateKey(curve: .p384, derRepresentation: derRepresentation)
        }

        /// The corresponding public key.
        public var publicKey: P384.KeyAgreement.PublicKey { PublicKey(impl: impl.publicKey) }
        /// The scalar `d`.
        public var rawRepresentation: Data { impl.rawRepresentation }
        /// `04 ‖ x ‖ y ‖ d` (ANSI X9.63).
        public var x963Representation: Data { impl.x963Representation }
        /// The DER PKCS #8 PrivateKeyInfo.
        public var derRepresentation: Data { impl.derRepresentation }
        /// The PEM `PRIVATE KEY` document (PKCS #8).
        public var pemRepresentation: String { impl.pemRepresentation }

        /// ECDH with `publicKeyShare`: the x coordinate of the shared point.
        /// - Parameter publicKeyShare: The other party's public key.
        /// - Returns: The shared secret, to be passed through a key derivation function.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError` when OpenSSL fails.
        public func sharedSecretFromKeyAgreement(with publicKeyShare: P384.KeyAgreement.PublicKey) throws
            -> SharedSecret
        {
            try impl.sharedSecret(with: publicKeyShare.impl)
        }
    }
}
