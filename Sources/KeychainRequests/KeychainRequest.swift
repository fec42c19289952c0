import KeychainCore

/// One request to a keychain, as plain data: what the `Security` and `LocalAuthentication` faces and the
/// `security` command ask of the engine. No closures and no live objects (contexts are named by the caller's
/// id), so a request can be encoded on a socket as it is.
public enum KeychainRequest: Sendable {
    // Items (SecItemAdd, SecItemCopyMatching, SecItemUpdate, SecItemDelete) and their dry runs.
    case add(NewItem)
    case search(ItemQuery)
    case update(ItemQuery, ItemChanges)
    case delete(ItemQuery)
    case previewAdd(NewItem)
    case previewSearch(ItemQuery)
    case previewUpdate(ItemQuery, ItemChanges)
    case previewDelete(ItemQuery)

    // Authentication contexts (LAContext). All but `create` act on the caller's context.
    case createAuthenticationContext
    case forgetAuthenticationContext
    case configureAuthenticationContext(AuthenticationContextSettings)
    /// Sets (or with nil clears) the application password `.applicationPassword` items need.
    case setApplicationPassword(Secret?)
    /// Sets (or with "" clears) `LAContext.localizedReason`, which the context's prompts show when the call gives no
    /// `kSecUseOperationPrompt`.
    case setLocalizedReason(String)
    case invalidateAuthenticationContext
    case authenticationContextState
    case canEvaluatePolicy(AuthenticationPolicy)
    case evaluatePolicy(AuthenticationPolicy, reason: String)
    /// Authenticates the context for an access control's constraints, as a read of an item under it would.
    case evaluateAccessControl(AccessControlPolicy, operation: Keychain.AccessControlOperation, reason: String)

    // Lock state and passcode.
    case keychainInfo
    case lock
    case unlock(passcode: Secret)
    case setPasscode(new: Secret, current: Secret?)
    case removePasscode(current: Secret)
    case setGracePeriod(seconds: Int)
    case simulateRestart

    // Backups (paths on the machine the keychain runs on).
    case backup(path: String, password: Secret)
    case restore(path: String, password: Secret)
    /// A backup's file as bytes, for a client that writes the file itself (keychaind opens no client paths).
    case backupArchive(password: Secret)
    /// Restores from a backup file's bytes, read by the client.
    case restoreArchive([UInt8], password: Secret)

    // The authenticators: the sensor's state, and the simulated devices `security biometry`/`companion` drive.
    case biometryStatus
    case simulatedBiometry(SimulatedBiometryAction)
    case simulatedCompanion(SimulatedCompanionAction)
    case describeService

    /// A Secure Enclave key operation run by the keychain's own enclave (keychaind's).
    case enclaveKey(EnclaveKeyRequest)
}

extension KeychainRequest {
    /// The oldest keychaind protocol that serves this request: a client does not send it to an older daemon,
    /// which would take an unknown kind for a damaged message.
    package var minimumProtocol: Int {
        switch self {
        case .enclaveKey: 3
        case .setLocalizedReason: 5
        default: 1
        }
    }
}

/// Settings of an authentication context; nil leaves a setting as it is.
public struct AuthenticationContextSettings: Sendable, Hashable {
    /// `touchIDAuthenticationAllowableReuseDuration`, in seconds (capped at five minutes).
    public var reuseDuration: Double?
    public var interactionNotAllowed: Bool?

    public init(reuseDuration: Double? = nil, interactionNotAllowed: Bool? = nil) {
        self.reuseDuration = reuseDuration
        self.interactionNotAllowed = interactionNotAllowed
    }
}

/// What `security biometry ACTION` does to the simulated sensor.
public enum SimulatedBiometryAction: Sendable, Hashable {
    case enroll
    case unenroll
    case changeEnrollment
    case script(BiometricOutcome)
}

/// What `security companion ACTION` does to the simulated companion.
public enum SimulatedCompanionAction: Sendable, Hashable {
    case pair
    case unpair
    case script(CompanionOutcome)
    case status
}
