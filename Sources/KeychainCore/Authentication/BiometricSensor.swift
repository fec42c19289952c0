import KeychainCrypto

/// What biometric constraints are bound to, as of one look at the sensor.
struct BiometricKeys: Sendable {
    /// Identifies the enrolled set (`evaluatedPolicyDomainState`); nil when nothing is enrolled.
    let domainState: [UInt8]?
    /// What `biometryCurrentSet` items are bound to; nil when nothing is enrolled.
    let currentSetKey: SecureBytes?
    /// What `biometryAny` items are bound to, if made yet.
    let anyKey: SecureBytes?
}

/// A biometric sensor as the authenticators use it: the simulated one, or the machine's fingerprint reader.
protocol BiometricSensor: Sendable {
    /// The sensor's state now.
    func status() throws -> BiometryStatus
    /// Presents a biometric prompt, showing `reason` where the sensor has a place for it.
    /// - Throws: `AuthenticationFailure`.
    func prompt(reason: String) throws
    /// Ends a lockout (the device passcode was entered).
    func resetFailures() throws
    /// The enrolled set and the keys bound to it.
    func keys() throws -> BiometricKeys
    /// The key `biometryAny` items are bound to, made on first use.
    func anyKey() throws -> SecureBytes
}

/// What `security biometry status` and `LAContext` see of the biometric sensor.
public struct BiometryStatus: Sendable, Equatable {
    /// Whether there is a sensor (the simulated one always is; a fingerprint reader may be unplugged).
    public let isAvailable: Bool
    public let isEnrolled: Bool
    public let isLockedOut: Bool
    /// Failed matches in a row.
    public let failures: Int
    /// The queued reactions, oldest first.
    public let script: [BiometricOutcome]
    /// Whether a prompt now would meet a user: a real reader always does; the simulated sensor only with a
    /// reaction queued (without one, its prompt is dismissed at once).
    public let answersPrompts: Bool
    /// Identifies the enrolled set (`evaluatedPolicyDomainState`); nil when nothing is enrolled.
    public let domainState: [UInt8]?

    /// Every field as given (a daemon's client rebuilds what the daemon reported).
    package init(
        isAvailable: Bool, isEnrolled: Bool, isLockedOut: Bool, failures: Int, script: [BiometricOutcome],
        answersPrompts: Bool, domainState: [UInt8]?
    ) {
        self.isAvailable = isAvailable
        self.isEnrolled = isEnrolled
        self.isLockedOut = isLockedOut
        self.failures = failures
        self.script = script
        self.answersPrompts = answersPrompts
        self.domainState = domainState
    }
}
