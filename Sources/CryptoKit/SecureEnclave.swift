import LocalAuthentication
import Security

/// Apple's Secure Enclave keys. This machine has no enclave this module can use: `isAvailable` is false and
/// every key initializer throws, as on Apple hardware without a Secure Enclave. A TPM 2.0 back end is not
/// implemented; software stand-ins are never offered under this name.
public enum SecureEnclave {
    /// Whether keys can be created in a Secure Enclave. Always false here (see docs/cryptokit.md).
    public static var isAvailable: Bool { false }

    /// Keys on the P-256 curve.
    public enum P256 {
        /// Signing keys.
        public enum Signing {}
        /// Key-agreement keys.
        public enum KeyAgreement {}
    }

    /// The error every enclave operation throws: the project's errSecUnimplemented (-4), the status Apple's
    /// Security framework reports for an enclave key requested where there is none.
    static var unavailable: CryptoKitError { .underlyingCoreCryptoError(error: -4) }
}

extension SecureEnclave.P256.Signing {
    /// A P-256 signing key inside the Secure Enclave. No value of it can exist here: every initializer throws.
    public struct PrivateKey: @unchecked Sendable {  // safe: uninhabited
        private let unreachable: Never

        /// Would create a key in the enclave; throws, as there is none.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError(error: -4)`.
        public init(
            compactRepresentable: Bool = true,
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            throw SecureEnclave.unavailable
        }

        /// Would restore a key from the enclave's wrapped form; throws, as there is no enclave to unwrap it.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError(error: -4)`.
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
            throw SecureEnclave.unavailable
        }

        /// The corresponding public key.
        public var publicKey: P256.Signing.PublicKey { switch unreachable {} }

        /// The enclave's wrapped form of the key.
        public var dataRepresentation: Data { switch unreachable {} }

        /// Signs `digest` inside the enclave.
        public func signature<D: Digest>(for digest: D) throws -> P256.Signing.ECDSASignature {
            switch unreachable {}
        }

        /// Signs the SHA-256 digest of `data` inside the enclave.
        public func signature<D: DataProtocol>(for data: D) throws -> P256.Signing.ECDSASignature {
            switch unreachable {}
        }
    }
}

extension SecureEnclave.P256.KeyAgreement {
    /// A P-256 key-agreement key inside the Secure Enclave. No value of it can exist here: every initializer
    /// throws.
    public struct PrivateKey: @unchecked Sendable {  // safe: uninhabited
        private let unreachable: Never

        /// Would create a key in the enclave; throws, as there is none.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError(error: -4)`.
        public init(
            compactRepresentable: Bool = true,
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            throw SecureEnclave.unavailable
        }

        /// Would restore a key from the enclave's wrapped form; throws, as there is no enclave to unwrap it.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError(error: -4)`.
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
            throw SecureEnclave.unavailable
        }

        /// The corresponding public key.
        public var publicKey: P256.KeyAgreement.PublicKey { switch unreachable {} }

        /// The enclave's wrapped form of the key.
        public var dataRepresentation: Data { switch unreachable {} }

        /// ECDH inside the enclave.
        public func sharedSecretFromKeyAgreement(with publicKeyShare: P256.KeyAgreement.PublicKey) throws
            -> SharedSecret
        {
            switch unreachable {}
        }
    }
}
