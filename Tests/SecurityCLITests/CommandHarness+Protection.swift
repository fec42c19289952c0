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

extension CommandHarness {
    /// Runs `security -i` (with `arguments` before it) reading commands and passwords from one pipe holding
    /// `standardInput`, as the command does when its standard input is a file or a pipe.
    func runInteractive(standardInput: String, arguments: [String] = ["-i"]) -> Run {
        let input = PipedStandardInput(standardInput)
        return withExtendedLifetime(input) {
            let output = CapturedOutput()
            let errors = CapturedOutput()
            let runner = SecurityCommandRunner(
                source: .configuration(configuration), output: output, errors: errors, passwords: input.reader,
                commandLines: input.commandLines, language: language)
            let code = runner.run(arguments: arguments)
            return Run(exitCode: code, output: output.text, errors: errors.text)
        }
    }
}
