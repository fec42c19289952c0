/// The device-wide lock state, as on an iOS device with a passcode.
public enum LockState: String, Sendable {
    /// No passcode is set: every class but WhenPasscodeSetThisDeviceOnly is always available.
    case noPasscode = "no passcode"
    /// The machine restarted and the passcode has not been entered since: classes A and C are unavailable.
    case beforeFirstUnlock = "before first unlock"
    /// Classes A and C are available.
    case unlocked
    /// Locked after a first unlock: class C stays available; class A goes when the grace period ends.
    case locked
}

/// What `security show-keychain-info` reports.
public struct KeychainInfo: Sendable {
    public let lockState: LockState
    public let hasPasscode: Bool
    /// Seconds class A stays available after a lock.
    public let gracePeriod: Int
    /// PBKDF2 iterations of the passcode, and what one derivation cost when they were chosen.
    public let kdfIterations: Int?
    public let kdfMilliseconds: Double?
    /// Wrong passcodes since the last right one, and when the next attempt is allowed.
    public let failedAttempts: Int
    public let retryAfterSeconds: Double
    /// Where unlocked class keys live while the keychain is unlocked.
    public let classKeyStore: String

    /// Every field as given (a daemon's client rebuilds what the daemon reported).
    package init(
        lockState: LockState, hasPasscode: Bool, gracePeriod: Int, kdfIterations: Int?, kdfMilliseconds: Double?,
        failedAttempts: Int, retryAfterSeconds: Double, classKeyStore: String
    ) {
        self.lockState = lockState
        self.hasPasscode = hasPasscode
        self.gracePeriod = gracePeriod
        self.kdfIterations = kdfIterations
        self.kdfMilliseconds = kdfMilliseconds
        self.failedAttempts = failedAttempts
        self.retryAfterSeconds = retryAfterSeconds
        self.classKeyStore = classKeyStore
    }
}
