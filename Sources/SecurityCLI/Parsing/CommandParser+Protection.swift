import KeychainMessages

/// The data protection verbs: lock, unlock, passcode, settings, info, restart, backup and restore.
extension CommandParser {
    /// Builds a protection verb's command from its scanned options and operands (only the backup verbs take
    /// one: the file).
    /// - Throws: `UsageError` for options that contradict each other or a missing or malformed value.
    static func protectionCommand(_ verb: SecurityVerb, _ options: [ScannedOption], _ operands: [String])
        throws(UsageError) -> SecurityCommand
    {
        switch verb {
        case .lockKeychain:
            // `-a` locks every keychain on macOS; there is one here.
            return .lockKeychain
        case .unlockKeychain:
            var unlock = UnlockKeychainCommand()
            var prompt = false
            for option in options {
                if option.letter == "u" { prompt = true } else { unlock.passcode = commandLineSecret(option) }
            }
            // macOS: -u means "do not use the password given"; the passcode is asked for instead.
            if prompt { unlock.passcode = .prompt }
            return .unlockKeychain(unlock)
        case .setKeychainPassword:
            return .setKeychainPassword(try passwordCommand(options))
        case .setKeychainSettings:
            return .setKeychainSettings(try settingsCommand(options))
        case .showKeychainInfo:
            return .showKeychainInfo(ShowKeychainInfoCommand(json: !options.isEmpty))
        case .simulateRestart:
            return .simulateRestart
        case .backupKeychain, .restoreKeychain:
            guard operands.count == 1, let file = operands.first, !file.isEmpty else {
                throw UsageError(operands.isEmpty ? .backupFileMissing : .oneBackupFile, verb: verb)
            }
            var command = BackupFileCommand(file: file)
            for option in options { command.password = commandLineSecret(option) }
            return verb == .backupKeychain ? .backupKeychain(command) : .restoreKeychain(command)
        default:
            throw UsageError(.illegalOption(verb.rawValue), verb: verb)
        }
    }

    private static func passwordCommand(_ options: [ScannedOption]) throws(UsageError) -> SetKeychainPasswordCommand {
        var command = SetKeychainPasswordCommand()
        var remove = false
        var newGiven = false
        for option in options {
            switch option.letter {
            case "o": command.current = commandLineSecret(option)
            case "p":
                command.new = commandLineSecret(option)
                newGiven = true
            default: remove = true
            }
        }
        if remove {
            guard !newGiven else {
                throw UsageError(.removeTakesNoNewPassword, verb: .setKeychainPassword)
            }
            command.new = nil
        }
        return command
    }

    private static func settingsCommand(_ options: [ScannedOption]) throws(UsageError) -> SetKeychainSettingsCommand {
        var seconds: Int?
        var lockOnSleep = false
        for option in options {
            switch option.letter {
            case "t":
                // macOS keeps the lock interval in 32 bits; a longer one is refused here, before the keychain.
                guard let value = option.value.flatMap({ UInt32($0) }) else {
                    throw UsageError(.gracePeriodValue(option.value ?? ""), verb: .setKeychainSettings)
                }
                seconds = Int(value)
            case "l":
                lockOnSleep = true  // accepted as macOS accepts it; the runner warns that it has no meaning here
            default:
                break  // -u: lock after the timeout, which is what the grace period always does.
            }
        }
        return SetKeychainSettingsCommand(gracePeriod: seconds, lockOnSleep: lockOnSleep)
    }

    /// A secret typed on the command line, as bytes.
    private static func commandLineSecret(_ option: ScannedOption) -> PasscodeInput {
        .commandLine(CommandLineSecret(utf8: option.value ?? ""))
    }
}

extension SecurityVerb {
    /// Whether the verb's operand is a file of its own rather than a keychain (which is not supported).
    var takesFileOperand: Bool {
        self == .backupKeychain || self == .restoreKeychain || self == .biometry || self == .companion
    }
}
