import Foundation

/// The simulated companion's state, kept in `companion.json` (0600) in the keychain home so that every process
/// of the keychain, tests and the `security companion` command see the same companion.
struct CompanionDocument: Codable, Equatable, SharedStateDocument {
    static let fileName = "companion.json"

    var paired = false
    /// Random, created once and kept across pairings: what `.watch` items are bound to.
    var secret: String?
    /// The simulated user's next reactions on the companion, oldest first.
    var script: [CompanionOutcome] = []
}
