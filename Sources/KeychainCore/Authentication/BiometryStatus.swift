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
}
