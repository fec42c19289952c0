import KeychainCore

/// `biometry ACTION` (not on macOS): drives the keychain's simulated biometric sensor, as the iOS Simulator's
/// Face ID / Touch ID menu does, for demos of apps that use LocalAuthentication.
public enum BiometryCommand: String, Equatable, Sendable, CaseIterable {
    case enroll
    case unenroll
    /// Queues a matching finger for the next prompt.
    case match
    /// Queues a non-matching finger.
    case noMatch = "nomatch"
    /// Queues a tap on Cancel.
    case cancel
    /// Queues a tap on the fallback button.
    case fallback
    /// Adds a finger: `biometryCurrentSet` items become unreadable for good.
    case changeEnrollment = "change-enrollment"
    case status

    /// The reaction the action queues, if it queues one.
    var outcome: BiometricOutcome? {
        switch self {
        case .match: .match
        case .noMatch: .noMatch
        case .cancel: .cancel
        case .fallback: .fallback
        default: nil
        }
    }
}
