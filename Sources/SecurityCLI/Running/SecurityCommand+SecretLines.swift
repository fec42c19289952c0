/// How many password lines each command reads from an input that is not a terminal, so that `security -i` can
/// skip the ones a failed command left unread instead of running them as commands.
extension SecurityCommand {
    /// The lines read when a passcode is set and when none is; they differ only for `set-keychain-password`,
    /// which asks for the current passcode only when there is one.
    var secretLines: (withPasscode: Int, withoutPasscode: Int) {
        switch self {
        case .addPassword(let command):
            let count = command.password == .prompt ? 1 : 0
            return (count, count)
        case .unlockKeychain(let command):
            let count = command.passcode == .prompt ? 1 : 0
            return (count, count)
        case .backupKeychain(let command), .restoreKeychain(let command):
            let count = command.password == .prompt ? 1 : 0
            return (count, count)
        case .setKeychainPassword(let command):
            // One line for the new passcode: a line of input is read once, without the terminal's retype.
            let new = command.new == .prompt ? 1 : 0
            return (new + (command.current == .prompt ? 1 : 0), new)
        case .importItems(let command):
            // A passphrase is read for a PKCS#12 file; one known by its name or -f (others are found by content).
            let count = command.passphrase == nil && command.isPKCS12ByName ? 1 : 0
            return (count, count)
        case .exportItems(let command):
            let count = command.passphrase == nil && command.effectiveFormat == .pkcs12 ? 1 : 0
            return (count, count)
        default:
            return (0, 0)
        }
    }

    /// The lines still unread after the command read `read` of them; nil when that depends on whether a
    /// passcode is set and the command failed before it found out (`passcodeIsSet` nil).
    func unreadSecretLines(read: Int, passcodeIsSet: Bool?) -> Int? {
        let lines = secretLines
        let expected: Int
        switch passcodeIsSet {
        case true?: expected = lines.withPasscode
        case false?: expected = lines.withoutPasscode
        case nil:
            guard lines.withPasscode == lines.withoutPasscode else { return nil }
            expected = lines.withPasscode
        }
        return max(0, expected - read)
    }
}

extension SecurityVerb {
    /// The verbs that can ask for passwords on the lines after their own.
    var readsSecretLines: Bool {
        switch self {
        case .addGenericPassword, .addInternetPassword, .unlockKeychain, .setKeychainPassword, .backupKeychain,
            .restoreKeychain, .importItems, .exportItems:
            true
        default: false
        }
    }

    /// Whether a line that could not be parsed may have been followed by password lines: it names a verb that
    /// reads them, or ends with an option cluster ending in `w` (`-w`, `-Uw`), as a mistyped verb's may.
    static func mayBeFollowedBySecrets(_ words: [String]) -> Bool {
        if words.contains(where: { SecurityVerb(rawValue: $0)?.readsSecretLines == true }) { return true }
        guard let last = words.last, last.hasPrefix("-"), !last.hasPrefix("--") else { return false }
        return last.hasSuffix("w")
    }
}
