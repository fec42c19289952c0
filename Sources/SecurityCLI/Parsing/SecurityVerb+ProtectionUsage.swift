extension SecurityVerb {
    /// The usage text of the data protection verbs, in macOS's layout where macOS has the verb.
    var protectionUsage: String {
        switch self {
        case .lockKeychain:
            return """
                Usage: lock-keychain [-a]
                    -a  Lock all keychains (there is one)
                """
        case .unlockKeychain:
            return """
                Usage: unlock-keychain [-u] [-p password]
                    -p  Use "password" as the passcode (visible to other processes; prefer the prompt)
                    -u  Do not use the password; ask for it
                Without -p the passcode is asked for at the terminal, or read as one line of standard input.
                """
        case .setKeychainPassword:
            return """
                Usage: set-keychain-password [-o oldPassword] [-p newPassword]
                       set-keychain-password --remove [-o oldPassword]
                    -o  Old password, if the keychain has one (visible to other processes; prefer the prompt)
                    -p  New password (visible to other processes; prefer the prompt)
                    --remove  Remove the passcode (WhenPasscodeSetThisDeviceOnly items are deleted)
                Passwords not given are asked for at the terminal (the new one twice), or read as lines of
                standard input: the old one first (only when a passcode is set), then the new one.
                """
        case .setKeychainSettings:
            return """
                Usage: set-keychain-settings [-l] [-u] [-t timeout]
                    -l  Lock keychain when the system sleeps (no meaning here; accepted with a warning)
                    -t  Seconds WhenUnlocked items stay available after lock-keychain (the grace period); without
                        it the grace period stays as it is
                    -u  Lock keychain after timeout interval (always the case here)
                """
        case .showKeychainInfo:
            return """
                Usage: show-keychain-info [--json]
                    --json  Print one JSON object instead of text
                """
        case .simulateRestart:
            return """
                Usage: simulate-restart
                    Forget every unlocked class key, as restarting the machine does (for tests and demos).
                """
        case .backupKeychain:
            return """
                Usage: backup-keychain [-p password] file
                    -p  Backup password (visible to other processes; prefer the prompt)
                Without -p the password is asked for twice at the terminal, or read as one line of standard
                input. ThisDeviceOnly items are left out.
                """
        case .restoreKeychain:
            return """
                Usage: restore-keychain [-p password] file
                    -p  Backup password (visible to other processes; prefer the prompt)
                Without -p the password is asked for at the terminal, or read as one line of standard input.
                """
        default:
            return usage
        }
    }
}
