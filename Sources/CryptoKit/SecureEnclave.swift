internal import KeychainCrypto
import LocalAuthentication
import Security
internal import TPMEnclave

/// Apple's Secure Enclave keys, kept in the machine's TPM 2.0: created inside it under its storage primary key,
/// used (signing, ECDH) inside it, and stored by the caller as the TPM's wrapped blob (`dataRepresentation`),
/// which only the same TPM can load. Without a TPM, `isAvailable` is false and every initializer throws, as on
/// Apple hardware without a Secure Enclave; no software stand-in is ever offered under this name.
///
/// The TPM is the kernel's resource manager `/dev/tpmrm0`, or the TCTI named by `KEYCHAIN_TPM_TCTI`.
public enum SecureEnclave {
    /// Whether keys can be created in a TPM here.
    public static var isAvailable: Bool { (try? connection()) != nil }

    /// Keys on the P-256 curve.
    public enum P256 {
        /// Signing keys.
        public enum Signing {}
        /// Key-agreement keys.
        public enum KeyAgreement {}
    }

    /// The TCTI a test points the enclave at, for the task it runs in.
    @TaskLocal static var tctiOverride: String? = nil

    /// The connection to the TPM.
    /// - Throws: `CryptoKitError.underlyingCoreCryptoError(error: -4)` (errSecUnimplemented, what Apple's Security
    ///   framework reports for an enclave key where there is none) when no TPM is configured or reachable.
    static func connection() throws -> TPMConnection {
        guard let tcti = tctiOverride ?? TPMConfiguration.defaultTCTI() else {
            throw CryptoKitError.underlyingCoreCryptoError(error: -4)
        }
        do {
            return try TPMConfiguration.connection(tcti)
        } catch {
            throw CryptoKitError.underlyingCoreCryptoError(error: error.code)
        }
    }

    /// Runs a TPM operation, turning its failures into `CryptoKitError.underlyingCoreCryptoError` with the TSS2
    /// response code (-50, errSecParam, for a blob this keychain did not write).
    static func translating<R>(_ connection: TPMConnection, _ body: () throws(TPMError) -> R) throws -> R {
        do {
            return try body()
        } catch {
            // A transport failure (TCTI layer, 0x000Axxxx) means the TPM went away: reconnect next time.
            if case .tpm(_, let code) = error, code >> 16 == 0x0A { TPMConfiguration.forget(connection.tcti) }
            throw CryptoKitError.underlyingCoreCryptoError(error: error.code)
        }
    }

    /// Accepts access control that asks for nothing at use time (any protection class, with or without
    /// `.privateKeyUsage`). User presence, biometry, passcode and the other constraints are not bound to TPM keys
    /// yet: such keys are refused with errSecUnimplemented rather than created without the check.
    static func checkAccessControl(_ accessControl: SecAccessControl) throws {
        let classes = [
            kSecAttrAccessibleWhenUnlocked, kSecAttrAccessibleAfterFirstUnlock, kSecAttrAccessibleAlways,
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            kSecAttrAccessibleAlwaysThisDeviceOnly, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
        ]
        for protection in classes {
            for flags in [SecAccessControlCreateFlags(), .privateKeyUsage] {
                if SecAccessControlCreateWithFlags(nil, protection, flags, nil) == accessControl { return }
            }
        }
        throw CryptoKitError.underlyingCoreCryptoError(error: -4)
    }

    /// A new key in the TPM; with `compactRepresentable`, drawn until its public key is compact-representable.
    static func createKey(signing: Bool, compactRepresentable: Bool, accessControl: SecAccessControl) throws
        -> (blob: TPMKeyBlob, connection: TPMConnection)
    {
        try checkAccessControl(accessControl)
        let connection = try connection()
        for _ in 0..<32 {
            let blob = try translating(connection) { () throws(TPMError) in try connection.createKey(signing: signing) }
            let publicKey = try CryptoKit.P256.KeyAgreement.PublicKey(x963Representation: blob.publicPoint)
            if !compactRepresentable || publicKey.compactRepresentation != nil { return (blob, connection) }
        }
        throw CryptoKitError.underlyingCoreCryptoError(error: -1)
    }

    /// A key from its blob, checked by loading it into the TPM.
    static func restoreKey(_ data: Data, signing: Bool) throws -> (blob: TPMKeyBlob, connection: TPMConnection) {
        let connection = try connection()
        let blob = try translating(connection) { () throws(TPMError) in
            try TPMKeyBlob(serialized: Array(data), signing: signing)
        }
        try translating(connection) { () throws(TPMError) in try connection.check(blob) }
        return (blob, connection)
    }
}

extension SecureEnclave.P256.Signing {
    /// A P-256 signing key inside the TPM.
    public struct PrivateKey: Sendable {
        private let blob: TPMKeyBlob
        private let connection: TPMConnection
        /// The corresponding public key.
        public let publicKey: P256.Signing.PublicKey

        /// Creates a key inside the TPM.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError(error: -4)` without a TPM, or for access control
        ///   that asks for user authentication (not bound to TPM keys yet).
        public init(
            compactRepresentable: Bool = true,
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            (blob, connection) = try SecureEnclave.createKey(
                signing: true, compactRepresentable: compactRepresentable, accessControl: accessControl)
            publicKey = try P256.Signing.PublicKey(x963Representation: blob.publicPoint)
        }

        /// Restores a key from its `dataRepresentation`, which only the TPM that made it can load.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError` with the TPM's response code when the TPM refuses
        ///   it (another TPM, or this one after its seeds changed), -50 for bytes that are no key blob, -4 without a
        ///   TPM.
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
            (blob, connection) = try SecureEnclave.restoreKey(dataRepresentation, signing: true)
            publicKey = try P256.Signing.PublicKey(x963Representation: blob.publicPoint)
        }

        /// The TPM's wrapped form of the key, to store (in the keychain) and restore with
        /// ``init(dataRepresentation:authenticationContext:)``. It does not contain the private key in the clear.
        public var dataRepresentation: Data { Data(blob.serialized) }

        /// Signs a SHA-256 `digest` inside the TPM.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a digest of another size; a TPM failure otherwise.
        public func signature<D: Digest>(for digest: D) throws -> P256.Signing.ECDSASignature {
            let bytes = Array(digest)
            guard bytes.count == 32 else { throw CryptoKitError.incorrectParameterSize }
            let raw = try SecureEnclave.translating(connection) { () throws(TPMError) in
                try connection.sign(digest: bytes, with: blob)
            }
            return try P256.Signing.ECDSASignature(rawRepresentation: raw)
        }

        /// Signs the SHA-256 digest of `data` inside the TPM.
        public func signature<D: DataProtocol>(for data: D) throws -> P256.Signing.ECDSASignature {
            try signature(for: SHA256.hash(data: data))
        }
    }
}

extension SecureEnclave.P256.KeyAgreement {
    /// A P-256 key-agreement key inside the TPM.
    public struct PrivateKey: Sendable {
        private let blob: TPMKeyBlob
        private let connection: TPMConnection
        /// The corresponding public key.
        public let publicKey: P256.KeyAgreement.PublicKey

        /// Creates a key inside the TPM.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError(error: -4)` without a TPM, or for access control
        ///   that asks for user authentication (not bound to TPM keys yet).
        public init(
            compactRepresentable: Bool = true,
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            (blob, connection) = try SecureEnclave.createKey(
                signing: false, compactRepresentable: compactRepresentable, accessControl: accessControl)
            publicKey = try P256.KeyAgreement.PublicKey(x963Representation: blob.publicPoint)
        }

        /// Restores a key from its `dataRepresentation`, which only the TPM that made it can load.
        /// - Throws: as ``SecureEnclave/P256/Signing/PrivateKey/init(dataRepresentation:authenticationContext:)``.
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
            (blob, connection) = try SecureEnclave.restoreKey(dataRepresentation, signing: false)
            publicKey = try P256.KeyAgreement.PublicKey(x963Representation: blob.publicPoint)
        }

        /// The TPM's wrapped form of the key.
        public var dataRepresentation: Data { Data(blob.serialized) }

        /// ECDH inside the TPM: the x coordinate of this key's scalar times `publicKeyShare`.
        public func sharedSecretFromKeyAgreement(with publicKeyShare: P256.KeyAgreement.PublicKey) throws
            -> SharedSecret
        {
            let point = Array(publicKeyShare.x963Representation)
            let x = Array(point[1...32])
            let y = Array(point[33...64])
            var secret = try SecureEnclave.translating(connection) { () throws(TPMError) in
                try connection.sharedSecret(peerX: x, peerY: y, with: blob)
            }
            defer { secret.withUnsafeMutableBytes { wipeBytes($0) } }
            return SharedSecret(secret: SecureBytes(secret))
        }
    }
}
