/// What `security companion status` and `LAContext` see of the simulated companion.
public struct CompanionStatus: Sendable, Equatable {
    public let isPaired: Bool
    /// The queued reactions, oldest first.
    public let script: [CompanionOutcome]
}
