import Foundation
import KeychainCore

@testable import SecurityCLI

extension CommandHarness {
    /// Runs a command whose passwords come from a pipe holding `standardInput`.
    func run(_ arguments: [String], standardInput: String) -> Run {
        let input = PipedStandardInput(standardInput)
        return withExtendedLifetime(input) { run(arguments, passwords: input.reader) }
    }

    /// Forgets this keychain's unlocked class keys. Every test that sets a passcode ends with it: the keys
    /// live in the user's kernel keyring and would otherwise outlive the test.
    func restart() {
        (try? keychain())?.simulateRestart()
    }

    /// `show-keychain-info --json`, decoded.
    func info() throws -> [String: Any] {
        let run = run(["show-keychain-info", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8))
        return object as? [String: Any] ?? [:]
    }
}
