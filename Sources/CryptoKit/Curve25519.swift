internal import CryptoKitOpenSSL

/// Curve25519: Ed25519 signatures (RFC 8032) and X25519 key agreement (RFC 7748).
public enum Curve25519: Sendable {
    /// Ed25519 keys.
    public enum Signing: Sendable {}
    /// X25519 keys.
    public enum KeyAgreement: Sendable {}
}

extension Curve25519.Signing {
    /// An Ed25519 public key.
    public struct PublicKey: Sendable {
        let key: Curve25519Key

        init(key: Curve25519Key) { self.key = key }

        /// A public key from its 32 bytes.
        /// - Throws: `CryptoKitError.incorrectKeySize` for another length, `.invalidParameter` for bytes that are
        ///   not a point on the curve.
        public init<D: ContiguousBytes>(rawRepresentation: D) throws {
            key = try Curve25519Key.make(.ed25519, publicKey: rawRepresentation)
        }

        /// The key's 32 bytes.
        public var rawRepresentation: Data { Data(key.publicKeyBytes) }

        /// Whether `signature` is this key's Ed25519 signature of `data`.
        /// - Parameters:
        ///   - signature: The 64-byte signature.
        ///   - data: The signed data.
        /// - Returns: `true` when the signature is valid.
        public func isValidSignature<S: DataProtocol, D: DataProtocol>(_ signature: S, for data: D) -> Bool {
            withContiguousBytes(of: signature) { signature in
                withContiguousBytes(of: data) { data in key.isValidSignature(signature, for: data) }
            }
        }
    }

    /// An Ed25519 private key.
    public struct PrivateKey: Sendable {
        let key: Curve25519Key

        /// A new random key.
        public init() { key = Curve25519Key.generated(.ed25519) }

        /// A key from its 32-byte seed.
        /// - Throws: `CryptoKitError.incorrectKeySize` for another length.
        public init<D: ContiguousBytes>(rawRepresentation: D) throws {
            key = try Curve25519Key.make(.ed25519, privateKey: rawRepresentation)
        }

        /// The corresponding public key.
        public var publicKey: Curve25519.Signing.PublicKey { PublicKey(key: key.publicHalf) }

        /// The 32-byte seed.
        public var rawRepresentation: Data { key.privateData }

        /// The Ed25519 signature of `data` (RFC 8032, 64 bytes).
        /// - Parameter data: The data to sign.
        /// - Returns: The signature.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError` when OpenSSL fails.
        public func signature<D: DataProtocol>(for data: D) throws -> Data {
            try translatingErrors { try withContiguousBytes(of: data) { Data(try key.signature(for: $0)) } }
        }
    }
}

extension Curve25519.KeyAgreement {
    /// An X25519 public key.
    public struct PublicKey: Sendable {
        let key: Curve25519Key

        init(key: Curve25519Key) { self.key = key }

        /// A public key from its 32 bytes.
        /// - Throws: `CryptoKitError.incorrectKeySize` for another length.
        public init<D: ContiguousBytes>(rawRepresentation: D) throws {
            key = try Curve25519Key.make(.x25519, publicKey: rawRepresentation)
        }

        /// The key's 32 bytes.
        public var rawRepresentation: Data { Data(key.publicKeyBytes) }
    }

    /// An X25519 private key.
    public struct PrivateKey: Sendable {
        let key: Curve25519Key

        /// A new random key.
        public init() { key = Curve25519Key.generated(.x25519) }

        /// A key from its 32-byte scalar.
        /// - Throws: `CryptoKitError.incorrectKeySize` for another length.
        public init<D: ContiguousBytes>(rawRepresentation: D) throws {
            key = try Curve25519Key.make(.x25519, privateKey: rawRepresentation)
        }

        /// The corresponding public key.
        public var publicKey: Curve25519.KeyAgreement.PublicKey { PublicKey(key: key.publicHalf) }

        /// The 32-byte scalar.
        public var rawRepresentation: Data { key.privateData }

        /// X25519 with `publicKeyShare` (RFC 7748).
        /// - Parameter publicKeyShare: The other party's public key.
        /// - Returns: The shared secret, to be passed through a key derivation function.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError` when the result is all zeros (a small-order
        ///   public key) or OpenSSL fails.
        public func sharedSecretFromKeyAgreement(with publicKeyShare: Curve25519.KeyAgreement.PublicKey) throws
            -> SharedSecret
        {
            try translatingErrors { SharedSecret(secret: try key.sharedSecret(with: publicKeyShare.key)) }
        }
    }
}

extension Curve25519Key {
    static func make(_ algorithm: Algorithm, publicKey: some ContiguousBytes) throws -> Curve25519Key {
        try translatingErrors {
            try publicKey.withUnsafeBytes { try Curve25519Key(algorithm: algorithm, publicKey: $0) }
        }
    }

    static func make(_ algorithm: Algorithm, privateKey: some ContiguousBytes) throws -> Curve25519Key {
        try translatingErrors {
            try privateKey.withUnsafeBytes { try Curve25519Key(algorithm: algorithm, privateKey: $0) }
        }
    }

    static func generated(_ algorithm: Algorithm) -> Curve25519Key {
        do {
            return try generate(algorithm)
        } catch {
            // Apple's initializer cannot throw; generation fails only if OpenSSL cannot allocate or seed.
            preconditionFailure("Curve25519 key generation failed: \(error)")
        }
    }

    /// The public half; building it from bytes this process made fails only when OpenSSL cannot allocate.
    var publicHalf: Curve25519Key { (try? publicKey) ?? self }

    var privateData: Data { (try? privateKeyBytes).map { Data($0.bytes) } ?? Data() }
}
