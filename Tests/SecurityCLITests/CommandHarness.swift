import Foundation
import KeychainCore
import KeychainMessages

@testable import SecurityCLI

/// A fresh keychain in its own temporary home and a runner over it with captured outputs, for one test.
final class CommandHarness {
    let home: URL
    let identity: CallerIdentity
    /// The keychain's clock: the creation and modification dates new items get.
    var clock: @Sendable () -> Date = { Date() }
    /// The language of the runner's messages.
    var language = MessageLanguage.english

    /// `isOwner`: the command acts for the keychain's owner, as keychaind's owner rights make it (every group).
    init(groups: [String] = ["TEAM1.com.example.app"], isOwner: Bool = false) {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("security-cli-test-\(UUID().uuidString)")
        identity = CallerIdentity(applicationIdentifier: groups.first, accessGroups: groups, isOwner: isOwner)
    }

    deinit { try? FileManager.default.removeItem(at: home) }

    var configuration: KeychainConfiguration {
        var configuration = KeychainConfiguration(home: home, identity: identity, clock: clock)
        configuration.passcodeDerivationTarget = 0.002  // passcode tests stay fast
        return configuration
    }

    /// The keychain file the listings name.
    var keychainPath: String { home.appendingPathComponent(Keychain.databaseFileName).path }

    /// What one run produced.
    struct Run {
        let exitCode: Int32
        let output: String
        let errors: String
    }

    /// Runs a command line against this keychain; `-w` given last gets `password` from the reader.
    func run(_ arguments: [String], password: String? = nil) -> Run {
        run(arguments, passwords: FixedPasswordReader(password: password.map { Array($0.utf8) }))
    }

    func run(_ arguments: [String], passwords: any PasswordReader) -> Run {
        let output = CapturedOutput()
        let errors = CapturedOutput()
        let runner = SecurityCommandRunner(
            source: .configuration(configuration), output: output, errors: errors, passwords: passwords,
            language: language)
        let code = runner.run(arguments: arguments)
        return Run(exitCode: code, output: output.text, errors: errors.text)
    }

    /// Opens the same keychain through the engine, to check what the command did.
    func keychain() throws -> Keychain { try Keychain(configuration: configuration) }
}

/// Answers the password prompt with a fixed value, or as if the user pressed Control-D.
struct FixedPasswordReader: PasswordReader {
    let password: [UInt8]?

    func readNewItemPassword() throws(PasswordReadError) -> [UInt8] {
        guard let password else { throw .canceled }
        return password
    }
}
