import KeychainCore

/// `companion ACTION` (not on macOS): drives the keychain's simulated companion device (a paired watch), for
/// demos of apps that use `.watch` items or the LocalAuthentication watch policies.
public enum CompanionCommand: String, Equatable, Sendable, CaseIterable {
    case pair
    case unpair
    /// Queues an approval on the companion for the next request.
    case approve
    /// Queues a refusal.
    case deny
    /// Queues a dismissal.
    case cancel
    case status

    /// The reaction the action queues, if it queues one.
    var outcome: CompanionOutcome? {
        switch self {
        case .approve: .approve
        case .deny: .deny
        case .cancel: .cancel
        default: nil
        }
    }
}
