internal import CryptoKitOpenSSL
internal import EnclaveKeys
internal import KeychainCore
import LocalAuthentication
import Security

/// Apple's Secure Enclave keys, kept in the machine's TPM 2.0: created inside it under its storage primary key,
/// used (signing, ECDH) inside it, and stored by the caller as the TPM's wrapped blob (`dataRepresentation`),
/// which only the same TPM can load. Without a TPM, `isAvailable` is false and every initializer throws, as on
/// Apple hardware without a Secure Enclave, unless the machine's administrator opted in to the software enclave
/// (KeychainCore's `SecureEnclaveSetting`): then keys are made in software, sealed by the keychain home's device
/// key, and say that they are not hardware-backed (`isHardwareBacked`). Each key's auth value is sealed by the
/// keychain under its access control (see `SecureEnclaveKey`), so a use needs the protection class unlocked and the
/// constraints satisfied.
///
/// The TPM is the kernel's resource manager `/dev/tpmrm0`, or the TCTI named by `KEYCHAIN_TPM_TCTI`
/// (``SecureEnclaveBacking/configuredTCTI(_:)``).
public enum SecureEnclave {
    /// Whether keys can be created here: a TPM answers, or the administrator opted in to the software enclave (in
    /// daemon mode, on keychaind's side).
    public static var isAvailable: Bool { backing != .none }

    /// What keeps enclave keys in this task now.
    static var backing: SecureEnclaveBacking { SecureEnclaveBackends.backing }

    /// Keys on the P-256 curve.
    public enum P256 {
        /// Signing keys.
        public enum Signing {}
        /// Key-agreement keys.
        public enum KeyAgreement {}
    }

    /// Runs an enclave operation, turning its ``EnclaveError`` into CryptoKit's: a status becomes
    /// `CryptoKitError.underlyingCoreCryptoError` (-4 without an enclave, -50 for bytes that are no key of it,
    /// the keychain's status, or the status of a TPM failure: -26275 for a blob the TPM refuses, -25291 for a TPM
    /// busy, full or out of reach, -25308 in lockout); an OpenSSL failure, its own case.
    static func translated<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as EnclaveError {
            switch error {
            case .status(let status, _): throw CryptoKitError.underlyingCoreCryptoError(error: status)
            case .backend(let failure): throw failure.publicError
            case .noEnclave: throw CryptoKitError.underlyingCoreCryptoError(error: error.status)
            }
        }
    }

    /// The text of a prompt for a use with `context`: its `localizedReason`, or nil for the keychain's default.
    static func reason(_ context: LAContext?) -> String? {
        context.map(\.localizedReason).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The engine's access control behind `accessControl`. `SecAccessControl` keeps it to itself, so it is found
    /// by comparing with the objects every protection class and combination of flags makes.
    /// - Throws: `underlyingCoreCryptoError(error: -50)` (errSecParam) for constraints on the deprecated `Always`
    ///   classes, which the keychain refuses too (they are usable before the first unlock, where nobody can
    ///   authenticate), or flags this keychain does not know.
    static func policy(of accessControl: SecAccessControl) throws -> AccessControlPolicy {
        let known: [AccessControlFlags] = [
            .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion, .or, .and,
            .privateKeyUsage, .applicationPassword,
        ]
        for subset in 0..<(1 << known.count) {
            var flags = AccessControlFlags()
            for (bit, flag) in known.enumerated() where subset & (1 << bit) != 0 { flags.insert(flag) }
            for accessibility in Accessibility.allCases {
                let candidate = SecAccessControlCreateWithFlags(
                    nil, accessibility.rawValue as NSString, SecAccessControlCreateFlags(rawValue: flags.rawValue), nil)
                guard candidate == accessControl else { continue }
                let policy = AccessControlPolicy(accessibility: accessibility, flags: flags)
                if policy.hasConstraints, accessibility == .always || accessibility == .alwaysThisDeviceOnly {
                    throw CryptoKitError.underlyingCoreCryptoError(error: -50)
                }
                return policy
            }
        }
        throw CryptoKitError.underlyingCoreCryptoError(error: -50)
    }
}

extension SecureEnclave.P256.Signing {
    /// A P-256 signing key inside the TPM (or the administrator's software enclave, where there is no TPM).
    public struct PrivateKey: Sendable {
        private let key: SecureEnclaveKey
        /// The context whose evaluations a use may reuse (`authenticationContext`).
        private let context: LAContext?
        /// The corresponding public key.
        public let publicKey: P256.Signing.PublicKey

        /// Creates a key in the enclave whose use needs what `accessControl` asks: its protection class open in
        /// the keychain, and its constraints (biometry, passcode, …) satisfied by a prompt before each use, or by
        /// `authenticationContext`'s evaluation within its reuse duration.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError` with -4 without an enclave, -25308
        ///   (errSecInteractionNotAllowed) while the class is locked, -25293 (errSecAuthFailed) when a constraint
        ///   cannot be set up (no passcode, nothing enrolled), -50 for constraints on an `Always` class.
        public init(
            compactRepresentable: Bool = true,
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            key = try SecureEnclave.translated {
                try SecureEnclaveKey.create(
                    use: .signing, compactRepresentable: compactRepresentable,
                    policy: { try SecureEnclave.policy(of: accessControl) },
                    context: authenticationContext)
            }
            context = authenticationContext
            publicKey = try P256.Signing.PublicKey(x963Representation: key.publicPoint)
        }

        /// Restores a key from its `dataRepresentation`, which only the TPM that made it can load (a software
        /// enclave key: only the keychain home that made it).
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError` with -26275 (errSecDecode) when the TPM refuses it
        ///   (another TPM, or this one after its seeds changed) or for a software key that was altered or made in
        ///   another home, -25291 (errSecNotAvailable) when the TPM is busy, full or out of reach, -25308 in its
        ///   lockout, -50 for bytes that are no key blob of this enclave, -4 without one.
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
            key = try SecureEnclave.translated { try SecureEnclaveKey.restore(dataRepresentation, use: .signing) }
            context = authenticationContext
            publicKey = try P256.Signing.PublicKey(x963Representation: key.publicPoint)
        }

        /// The enclave's wrapped form of the key, to store (in the keychain) and restore with
        /// ``init(dataRepresentation:authenticationContext:)``. It does not contain the private key in the clear.
        public var dataRepresentation: Data { key.dataRepresentation }

        /// Whether the private key lives in hardware (a TPM): false for the software enclave's keys, which the
        /// keychain home's device key seals. A Linux extension; Apple's enclave keys are always in hardware.
        public var isHardwareBacked: Bool { key.isHardwareBacked }

        /// Signs `digest` in the enclave, after the authentication the key's access control asks for. A digest of
        /// another size than SHA-256's (SHA-384, SHA-1) is signed as ECDSA reads it on P-256: its leftmost 256
        /// bits, or its value when shorter, as Apple's enclave signs it.
        /// - Throws: `underlyingCoreCryptoError` with -128 (canceled), -25293 (failed, or an enrollment change for a
        ///   `.biometryCurrentSet` key), -25308 (locked class, or interaction not allowed), or a TPM failure.
        public func signature<D: Digest>(for digest: D) throws -> P256.Signing.ECDSASignature {
            let bytes = ECDSADigest.p256(Array(digest))
            let raw = try SecureEnclave.translated {
                try key.signature(
                    digest: bytes, context: context, reason: SecureEnclave.reason(context))
            }
            return try P256.Signing.ECDSASignature(rawRepresentation: raw)
        }

        /// Signs the SHA-256 digest of `data` in the enclave.
        public func signature<D: DataProtocol>(for data: D) throws -> P256.Signing.ECDSASignature {
            try signature(for: SHA256.hash(data: data))
        }
    }
}

extension SecureEnclave.P256.KeyAgreement {
    /// A P-256 key-agreement key inside the TPM (or the administrator's software enclave).
    public struct PrivateKey: Sendable {
        private let key: SecureEnclaveKey
        /// The context whose evaluations a use may reuse (`authenticationContext`).
        private let context: LAContext?
        /// The corresponding public key.
        public let publicKey: P256.KeyAgreement.PublicKey

        /// Creates a key in the enclave whose use needs what `accessControl` asks: its protection class open in
        /// the keychain, and its constraints (biometry, passcode, …) satisfied by a prompt before each use, or by
        /// `authenticationContext`'s evaluation within its reuse duration.
        /// - Throws: `CryptoKitError.underlyingCoreCryptoError` with -4 without an enclave, -25308
        ///   (errSecInteractionNotAllowed) while the class is locked, -25293 (errSecAuthFailed) when a constraint
        ///   cannot be set up (no passcode, nothing enrolled), -50 for constraints on an `Always` class.
        public init(
            compactRepresentable: Bool = true,
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            key = try SecureEnclave.translated {
                try SecureEnclaveKey.create(
                    use: .keyAgreement, compactRepresentable: compactRepresentable,
                    policy: { try SecureEnclave.policy(of: accessControl) },
                    context: authenticationContext)
            }
            context = authenticationContext
            publicKey = try P256.KeyAgreement.PublicKey(x963Representation: key.publicPoint)
        }

        /// Restores a key from its `dataRepresentation`, which only the enclave that made it can load.
        /// - Throws: as ``SecureEnclave/P256/Signing/PrivateKey/init(dataRepresentation:authenticationContext:)``.
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
            key = try SecureEnclave.translated { try SecureEnclaveKey.restore(dataRepresentation, use: .keyAgreement) }
            context = authenticationContext
            publicKey = try P256.KeyAgreement.PublicKey(x963Representation: key.publicPoint)
        }

        /// The enclave's wrapped form of the key.
        public var dataRepresentation: Data { key.dataRepresentation }

        /// Whether the private key lives in hardware (a TPM): false for the software enclave's keys, which the
        /// keychain home's device key seals. A Linux extension; Apple's enclave keys are always in hardware.
        public var isHardwareBacked: Bool { key.isHardwareBacked }

        /// ECDH in the enclave: the x coordinate of this key's scalar times `publicKeyShare`, after the
        /// authentication the key's access control asks for (failures as for signing keys' `signature(for:)`).
        public func sharedSecretFromKeyAgreement(with publicKeyShare: P256.KeyAgreement.PublicKey) throws
            -> SharedSecret
        {
            let secret = try SecureEnclave.translated {
                try key.sharedSecret(
                    peerPoint: Array(publicKeyShare.x963Representation), context: context,
                    reason: SecureEnclave.reason(context))
            }
            return SharedSecret(secret: secret)
        }
    }
}
