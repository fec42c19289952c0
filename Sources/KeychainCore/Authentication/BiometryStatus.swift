/// What `security biometry status` and `LAContext` see of the simulated sensor.
public struct BiometryStatus: Sendable, Equatable {
    public let isEnrolled: Bool
    public let isLockedOut: Bool
    /// Failed matches in a row.
    public let failures: Int
    /// The queued reactions, oldest first.
    public let script: [BiometricOutcome]
    /// Identifies the enrolled set (`evaluatedPolicyDomainState`); nil when nothing is enrolled.
    public let domainState: [UInt8]?
}
