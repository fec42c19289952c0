/// A scripted reaction of the simulated user on the paired companion (a watch) when it asks for approval.
public enum CompanionOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user approves (double-clicks the side button).
    case approve
    /// The user declines.
    case deny
    /// The user dismisses the request.
    case cancel
}
