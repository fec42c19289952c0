import KeychainCore
import TerminalIO

extension SecurityCommandRunner {
    /// `lock-keychain`: WhenUnlocked classes go after the grace period. Prints nothing, as on macOS.
    func lockKeychain(_ keychain: Keychain) throws(CommandFailure) {
        try perform("SecKeychainLock") { try keychain.lock() }
    }

    /// `unlock-keychain`: a wrong passcode fails with errSecAuthFailed (exit 51), as on macOS.
    func unlockKeychain(_ command: UnlockKeychainCommand, keychain: Keychain) throws(CommandFailure) {
        // macOS names the keychain in this message, `<NULL>` when none was given; there is one here.
        let operation = "SecKeychainUnlock <NULL>"
        let passcode = try secret(command.passcode, prompt: .unlock, option: "-p", operation: operation)
        try perform(operation) { try keychain.unlock(passcode: passcode) }
    }

    /// `set-keychain-password`: sets, changes or (`--remove`) removes the passcode. The old one is asked for
    /// only when a passcode is set.
    func setKeychainPassword(_ command: SetKeychainPasswordCommand, keychain: Keychain) throws(CommandFailure) {
        let operation = "SecKeychainChangePassword"
        let hasPasscode = try perform(operation) { try keychain.info().hasPasscode }
        passcodeIsSet = hasPasscode
        var current: Secret?
        if hasPasscode {
            current = try secret(command.current, prompt: .oldPasscode, option: "-o", operation: operation)
        } else if case .commandLine(var ignored) = command.current {
            PosixIO.wipe(&ignored)
        }
        guard let newInput = command.new else {
            guard let current else {
                errors.writeLine("security: no passcode is set; there is nothing to remove")
                return
            }
            try perform(operation) { try keychain.removePasscode(current: current) }
            return
        }
        let new = try secret(newInput, prompt: .newPasscode, option: "-p", operation: operation)
        try perform(operation) { try keychain.setPasscode(new, current: current) }
    }

    /// `set-keychain-settings -t SECONDS`: the grace period.
    func setKeychainSettings(_ command: SetKeychainSettingsCommand, keychain: Keychain) throws(CommandFailure) {
        try perform("SecKeychainSetSettings") { try keychain.setGracePeriod(command.gracePeriod) }
    }

    /// `show-keychain-info`: the text report, or `--json`.
    func showKeychainInfo(_ command: ShowKeychainInfoCommand, keychain: Keychain) throws(CommandFailure) {
        let info = try perform("SecKeychainCopySettings") { try keychain.info() }
        let report = KeychainInfoReport(keychainPath: listing(keychain).keychainPath, info: info)
        output.writeLines(command.json || format.json ? report.json() : report.text)
    }

    /// A passcode or backup password: read with `prompt`, or taken from the command line with the warning
    /// macOS gives. The bytes are copied into wiped-on-free memory and every array holding them is wiped.
    func secret(_ input: PasscodeInput, prompt: PasswordPrompt, option: String, operation: String)
        throws(CommandFailure) -> Secret
    {
        var bytes: [UInt8]
        switch input {
        case .commandLine(let given):
            errors.writeLine(
                "security: warning: a password on the command line (\(option)) is visible to other processes; "
                    + "leave \(option) out to be asked for it, or pipe it on standard input")
            bytes = given
        case .prompt:
            secretLinesRead += 1
            do {
                bytes = try passwords.readPassword(prompt)
            } catch {
                throw CommandFailure(operation, error)
            }
        }
        defer { PosixIO.wipe(&bytes) }
        return Secret(bytes)
    }
}
