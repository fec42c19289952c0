import KeychainCore

/// The answer to one ``KeychainRequest``, as plain data. Failures are thrown, not answered: a `KeychainError`
/// (status and reason) for keychain calls, an `AuthenticationFailure` (LAError code) for policy evaluations.
public enum KeychainResponse: Sendable {
    /// The request succeeded and has nothing to say.
    case done
    /// An add's result, when the add asked for one.
    case added(ItemResult?)
    case found(SearchReport)
    case deleted(count: Int)
    /// A dry run's findings (an add's dry run answers `.done`).
    case preview(OperationPreview)
    case authenticationContext(AuthenticationContextID)
    case authenticationContextState(AuthenticationContextState)
    case evaluated(AuthenticationMethod)
    case info(KeychainInfo)
    case backup(BackupSummary)
    /// A backup file's bytes (``KeychainRequest/backupArchive(password:)``) and what went into it.
    case backupArchive([UInt8], BackupSummary)
    case biometryStatus(BiometryStatus)
    case companionStatus(CompanionStatus)
    case service(ServiceDescription)
    /// What keeps the keychain's enclave keys.
    case enclaveBacking(EnclaveKeyBacking)
    /// A key an enclave request made or loaded.
    case enclaveKey(EnclaveKeyDescription)
    /// A signature made in the enclave (`r ‖ s`).
    case enclaveSignature([UInt8])
    /// A shared secret computed in the enclave.
    case enclaveSecret(Secret)
}

/// What an `LAContext` shows of its context.
public struct AuthenticationContextState: Sendable, Hashable {
    public var reuseDuration: Double
    public var interactionNotAllowed: Bool
    public var isInvalidated: Bool
    public var hasApplicationPassword: Bool
    /// The enrolled biometric set seen by the last check or evaluation.
    public var evaluatedDomainState: [UInt8]?

    public init(
        reuseDuration: Double, interactionNotAllowed: Bool, isInvalidated: Bool, hasApplicationPassword: Bool,
        evaluatedDomainState: [UInt8]?
    ) {
        self.reuseDuration = reuseDuration
        self.interactionNotAllowed = interactionNotAllowed
        self.isInvalidated = isInvalidated
        self.hasApplicationPassword = hasApplicationPassword
        self.evaluatedDomainState = evaluatedDomainState
    }
}

/// What the `security` command shows about the keychain it talks to.
public struct ServiceDescription: Sendable, Hashable {
    /// The database file, as listings name the keychain.
    public var databasePath: String
    /// Whether the machine's fingerprint reader replaces the simulated sensor.
    public var usesFingerprintReader: Bool
    /// One line per system authentication back end (PAM helper, fprintd) and whether it is in use.
    public var backEnds: [String]

    public init(databasePath: String, usesFingerprintReader: Bool, backEnds: [String]) {
        self.databasePath = databasePath
        self.usesFingerprintReader = usesFingerprintReader
        self.backEnds = backEnds
    }
}
