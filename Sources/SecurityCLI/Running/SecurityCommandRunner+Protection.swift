import KeychainCore
import KeychainMessages
import KeychainRequests
import TerminalIO

extension SecurityCommandRunner {
    /// `lock-keychain`: WhenUnlocked classes go after the grace period. Prints nothing, as on macOS, unless the
    /// keychain has no passcode: then locking changes nothing, and a note on standard error says so.
    func lockKeychain(_ keychain: KeychainClient) throws(CommandFailure) {
        let hasPasscode = try perform("SecKeychainLock") { try keychain.info().hasPasscode }
        try perform("SecKeychainLock") { try keychain.lock() }
        if !hasPasscode { note(.lockWithoutPasscode) }
    }

    /// `unlock-keychain`: a wrong passcode fails with errSecAuthFailed (exit 51), as on macOS. Through keychaind,
    /// any app may feed wrong passcodes, which hold back every app's attempts; the owner's are counted apart, so
    /// while the apps' are held back the unlock is made with owner rights when `owner` can claim them (a terminal,
    /// no `--app`). Only an unlock held back before it is tried goes there: a mistyped passcode counts once.
    func unlockKeychain(
        _ command: UnlockKeychainCommand, keychain: KeychainClient, owner: (() -> KeychainClient)? = nil
    ) throws(CommandFailure) {
        // macOS names the keychain in this message, `<NULL>` when none was given; there is one here.
        let operation = "SecKeychainUnlock <NULL>"
        guard try perform(operation, { try keychain.info().hasPasscode }) else {
            // Nothing to unlock: nobody is asked at a terminal, but a passcode line of piped input is read and
            // wiped, so that `-i` never runs it as a command.
            switch command.passcode {
            case .prompt where passwords.readsLinesOfInput:
                secretLinesRead += 1
                passwords.discardLine()
            // A passcode from the command line is wiped when the command goes.
            default: break
            }
            note(.unlockWithoutPasscode)
            return
        }
        let passcode = try secret(command.passcode, prompt: .unlock, operation: operation)
        if let owner, (try? keychain.info().retryAfterSeconds) ?? 0 > 0 {
            note(.unlockAsOwner)
            let ownersClient = owner()
            if ownersClient.caller.identity.isOwner {
                try perform(operation) { try ownersClient.unlock(passcode: passcode) }
                return
            }
        }
        try perform(operation) { try keychain.unlock(passcode: passcode) }
    }

    /// `set-keychain-password`: sets, changes or (`--remove`) removes the passcode. The old one is asked for
    /// only when a passcode is set.
    func setKeychainPassword(_ command: SetKeychainPasswordCommand, keychain: KeychainClient) throws(CommandFailure) {
        let operation = "SecKeychainChangePassword"
        let hasPasscode = try perform(operation) { try keychain.info().hasPasscode }
        passcodeIsSet = hasPasscode
        var current: Secret?
        if hasPasscode {
            current = try secret(command.current, prompt: .oldPasscode, operation: operation)
        }
        guard let newInput = command.new else {
            guard let current else {
                note(.nothingToRemove)
                return
            }
            let deleted = try perform(operation) { try keychain.removePasscode(current: current) }
            if let deleted { writeDeletedWithPasscode(deleted) }
            return
        }
        let new = try secret(newInput, prompt: .newPasscode, operation: operation)
        try perform(operation) { try keychain.setPasscode(new, current: current) }
    }

    /// `set-keychain-settings [-t SECONDS] [-l] [-u]`: the grace period; macOS's options without a meaning here
    /// are accepted with a warning.
    func setKeychainSettings(_ command: SetKeychainSettingsCommand, keychain: KeychainClient) throws(CommandFailure) {
        if command.lockOnSleep { note(.lockOnSleepIgnored) }
        guard let seconds = command.gracePeriod else {
            let current = try perform("SecKeychainSetSettings") { try keychain.info().gracePeriod }
            note(.gracePeriodUnchanged(seconds: current))
            return
        }
        try perform("SecKeychainSetSettings") { try keychain.setGracePeriod(seconds) }
    }

    /// `show-keychain-info`: the text report, or `--json`.
    func showKeychainInfo(_ command: ShowKeychainInfoCommand, keychain: KeychainClient) throws(CommandFailure) {
        let info = try perform("SecKeychainCopySettings") { try keychain.info() }
        let report = KeychainInfoReport(
            keychainPath: listing(keychain).keychainPath, info: info, secureEnclave: Self.secureEnclave(of: keychain))
        output.writeLines(command.json || format.json ? report.json() : report.text)
    }

    /// The enclave that keeps the keychain's Secure Enclave keys: this machine's configuration in process; through
    /// keychaind, the daemon's own (none from a daemon too old to serve enclave keys).
    static func secureEnclave(of keychain: KeychainClient) -> SecureEnclaveBacking {
        guard !(keychain.service is InProcessKeychainService) else { return SecureEnclaveBacking.configured() }
        return (try? keychain.enclaveBacking()).map(SecureEnclaveBacking.init) ?? .none
    }

    /// A passcode or backup password: read with `prompt`, or taken from the command line (warned of as the run
    /// starts). The bytes are copied into wiped-on-free memory and every array holding them is wiped.
    func secret(_ input: PasscodeInput, prompt: PasswordPrompt, operation: String)
        throws(CommandFailure) -> Secret
    {
        var bytes: [UInt8]
        switch input {
        case .commandLine(let given):
            return given.secret
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
