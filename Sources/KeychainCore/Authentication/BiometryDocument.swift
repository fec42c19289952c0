import Foundation

/// The simulated biometric sensor's state, kept in `biometry.json` (0600) in the keychain home so that every
/// process of the keychain, tests and the `security biometry` command see the same sensor.
struct BiometryDocument: Codable, Equatable, SharedStateDocument {
    static let fileName = "biometry.json"
    /// Failed matches in a row after which biometry locks out (Apple: five).
    static let lockoutThreshold = 5

    var enrolled = false
    /// Random, replaced on every enrollment change: what `biometryCurrentSet` items are bound to.
    var enrollmentSecret: String?
    /// Random, created once and kept across enrollment changes: what `biometryAny` items are bound to.
    var anySecret: String?
    var failures = 0
    /// The simulated user's next reactions at biometric prompts, oldest first.
    var script: [BiometricOutcome] = []

    var isLockedOut: Bool { failures >= Self.lockoutThreshold }
}
