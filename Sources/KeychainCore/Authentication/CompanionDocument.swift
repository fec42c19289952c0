import Foundation

/// The simulated companion's state, kept in `companion.json` (0600) in the keychain home so that every process
/// of the keychain, tests and the `security companion` command see the same companion.
struct CompanionDocument: Codable, Equatable {
    static let fileName = "companion.json"

    var paired = false
    /// Random, created once and kept across pairings: what `.watch` items are bound to.
    var secret: String?
    /// The simulated user's next reactions on the companion, oldest first.
    var script: [CompanionOutcome] = []

    static func decode(_ bytes: [UInt8]) throws -> CompanionDocument {
        do { return try JSONDecoder().decode(CompanionDocument.self, from: Data(bytes)) } catch {
            throw KeychainError.decode.because("\(fileName) is damaged")
        }
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }
}
