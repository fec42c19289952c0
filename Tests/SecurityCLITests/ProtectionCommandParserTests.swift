import Testing

@testable import SecurityCLI

@Suite struct ProtectionCommandParserTests {
    private func command(_ arguments: [String]) throws -> SecurityCommand {
        try CommandParser.parse(arguments).command
    }

    private func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try CommandParser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    private func secret(_ text: String) -> PasscodeInput { .commandLine(CommandLineSecret(utf8: text)) }

    @Test func lockKeychainTakesA() throws {
        #expect(try command(["lock-keychain"]) == .lockKeychain)
        #expect(try command(["lock-keychain", "-a"]) == .lockKeychain)
        #expect(usageError(["lock-keychain", "-x"])?.verb == .lockKeychain)
        #expect(usageError(["lock-keychain", "login.keychain"])?.message.contains("naming a keychain") == true)
    }

    @Test func unlockKeychainPromptsUnlessGivenP() throws {
        #expect(try command(["unlock-keychain"]) == .unlockKeychain(UnlockKeychainCommand(passcode: .prompt)))
        #expect(
            try command(["unlock-keychain", "-p", "1234"])
                == .unlockKeychain(UnlockKeychainCommand(passcode: secret("1234"))))
        #expect(
            try command(["unlock-keychain", "-p1234"])
                == .unlockKeychain(UnlockKeychainCommand(passcode: secret("1234"))))
        // macOS's -u: do not use the password given; ask.
        #expect(try command(["unlock-keychain", "-p", "1234", "-u"]) == .unlockKeychain(UnlockKeychainCommand()))
        #expect(usageError(["unlock-keychain", "-p"])?.message == "option requires an argument -- p")
        #expect(usageError(["unlock-keychain", "-w", "x"])?.message == "illegal option -- w")
        #expect(usageError(["unlock-keychain", "login.keychain"]) != nil)
    }

    @Test func setKeychainPasswordTakesOldNewAndRemove() throws {
        #expect(try command(["set-keychain-password"]) == .setKeychainPassword(SetKeychainPasswordCommand()))
        #expect(
            try command(["set-keychain-password", "-o", "old", "-p", "new"])
                == .setKeychainPassword(SetKeychainPasswordCommand(current: secret("old"), new: secret("new"))))
        #expect(
            try command(["set-keychain-password", "--remove"])
                == .setKeychainPassword(SetKeychainPasswordCommand(current: .prompt, new: nil)))
        #expect(
            try command(["set-keychain-password", "-o", "old", "--remove"])
                == .setKeychainPassword(SetKeychainPasswordCommand(current: secret("old"), new: nil)))
        #expect(usageError(["set-keychain-password", "--remove", "-p", "new"])?.verb == .setKeychainPassword)
        #expect(usageError(["set-keychain-password", "--delete"])?.message == "illegal option --delete")
        #expect(usageError(["set-keychain-password", "-o"])?.message == "option requires an argument -- o")
    }

    @Test func setKeychainSettingsAcceptsMacOSOptions() throws {
        #expect(
            try command(["set-keychain-settings", "-t", "0"])
                == .setKeychainSettings(SetKeychainSettingsCommand(gracePeriod: 0)))
        #expect(
            try command(["set-keychain-settings", "-u", "-t300"])
                == .setKeychainSettings(SetKeychainSettingsCommand(gracePeriod: 300)))
        #expect(
            try command(["set-keychain-settings"])
                == .setKeychainSettings(SetKeychainSettingsCommand(gracePeriod: nil)))
        #expect(usageError(["set-keychain-settings", "-t", "-1"])?.verb == .setKeychainSettings)
        #expect(usageError(["set-keychain-settings", "-t", "soon"])?.verb == .setKeychainSettings)
        #expect(
            try command(["set-keychain-settings", "-l", "-u", "-t", "5"])
                == .setKeychainSettings(SetKeychainSettingsCommand(gracePeriod: 5, lockOnSleep: true)))
    }

    @Test func showKeychainInfoTakesJSON() throws {
        #expect(try command(["show-keychain-info"]) == .showKeychainInfo(ShowKeychainInfoCommand(json: false)))
        #expect(
            try command(["show-keychain-info", "--json"]) == .showKeychainInfo(ShowKeychainInfoCommand(json: true)))
        #expect(usageError(["show-keychain-info", "--xml"]) != nil)
        #expect(usageError(["show-keychain-info", "-j"]) != nil)
    }

    @Test func simulateRestartTakesNothing() throws {
        #expect(try command(["simulate-restart"]) == .simulateRestart)
        #expect(usageError(["simulate-restart", "-a"]) != nil)
        #expect(usageError(["simulate-restart", "now"]) != nil)
    }

    @Test func backupVerbsTakeOneFileAndP() throws {
        #expect(
            try command(["backup-keychain", "out.backup"])
                == .backupKeychain(BackupFileCommand(file: "out.backup")))
        #expect(
            try command(["restore-keychain", "-p", "pw", "in.backup"])
                == .restoreKeychain(BackupFileCommand(file: "in.backup", password: secret("pw"))))
        #expect(usageError(["backup-keychain"])?.message == "the backup file is missing")
        #expect(usageError(["restore-keychain", "a", "b"])?.message == "name one backup file")
        #expect(usageError(["backup-keychain", "-x", "f"])?.verb == .backupKeychain)
    }

    @Test func usageErrorsExit64() {
        let harness = CommandHarness()
        for arguments in [
            ["unlock-keychain", "-p"], ["set-keychain-password", "--remove", "-p", "x"],
            ["show-keychain-info", "--yaml"], ["backup-keychain"], ["restore-keychain"],
        ] {
            let run = harness.run(arguments)
            #expect(run.exitCode == 64, "\(arguments)")
            #expect(run.errors.contains("Usage: \(arguments[0])"), "\(arguments)")
        }
    }

    @Test func everyNewVerbHasUsageAndIsListed() {
        let verbs: [SecurityVerb] = [
            .lockKeychain, .unlockKeychain, .setKeychainPassword, .setKeychainSettings, .showKeychainInfo,
            .simulateRestart, .backupKeychain, .restoreKeychain,
        ]
        for verb in verbs {
            #expect(verb.usage.hasPrefix("Usage: \(verb.rawValue)"))
            #expect(SecurityVerb.overview.contains(verb.rawValue))
        }
    }
}
