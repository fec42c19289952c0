import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

/// The data protection verbs against a temporary keychain. Every test that sets a passcode ends with a
/// restart, so no class key stays in the user's kernel keyring.
@Suite struct ProtectionCommandRunnerTests {
    static let wrongPasscode =
        "security: SecKeychainUnlock <NULL>: The user name or passphrase you entered is not correct.\n"

    @Test func passcodeFromStandardInputLockReadFailsUnlock() throws {
        let harness = CommandHarness()
        defer { harness.restart() }
        #expect(harness.run(["add-generic-password", "-a", "me", "-s", "svc", "-w"], password: "token").exitCode == 0)
        #expect(harness.run(["set-keychain-settings", "-t", "0"]).exitCode == 0)

        let set = harness.run(["set-keychain-password"], standardInput: "1234\n")
        #expect(set.exitCode == 0)
        #expect(set.output.isEmpty && set.errors.isEmpty)
        #expect(try harness.info()["lockState"] as? String == "unlocked")

        let lock = harness.run(["lock-keychain"])
        #expect(lock.exitCode == 0)
        #expect(lock.output.isEmpty && lock.errors.isEmpty)
        #expect(try harness.info()["lockState"] as? String == "locked")

        // A read of a WhenUnlocked item while locked: errSecInteractionNotAllowed, exit 36 (-25308's low byte).
        let read = harness.run(["find-generic-password", "-s", "svc", "-w"])
        #expect(read.exitCode == 36)
        #expect(read.output.isEmpty)
        #expect(read.errors.hasPrefix("security: SecKeychainSearchCopyNext: User interaction is not allowed.\n"))

        let wrong = harness.run(["unlock-keychain"], standardInput: "4321\n")
        #expect(wrong.exitCode == 51)
        #expect(wrong.errors.hasPrefix(Self.wrongPasscode))
        #expect(!wrong.errors.contains("4321"))
        #expect(try harness.info()["failedAttempts"] as? Int == 1)

        let right = harness.run(["unlock-keychain"], standardInput: "1234\n")
        #expect(right.exitCode == 0)
        #expect(right.output.isEmpty && right.errors.isEmpty)
        #expect(try harness.info()["failedAttempts"] as? Int == 0)
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "token\n")
    }

    @Test func unlockPromptsAsMacOSAndWarnsAboutP() {
        let harness = CommandHarness()
        defer { harness.restart() }
        #expect(harness.run(["set-keychain-password", "-p", "1234"]).exitCode == 0)
        #expect(harness.run(["lock-keychain"]).exitCode == 0)
        let reader = ScriptedPasswordReader(["1234"])
        #expect(harness.run(["unlock-keychain"], passwords: reader).exitCode == 0)
        #expect(reader.prompts == [PasswordPrompt("password to unlock default: ")])

        let scripted = harness.run(["unlock-keychain", "-p", "1234"])
        #expect(scripted.exitCode == 0)
        #expect(scripted.errors.contains("warning: a password on the command line (-p) is visible to other processes"))
        #expect(!scripted.errors.contains("1234"))

        let canceled = harness.run(["unlock-keychain"], passwords: ScriptedPasswordReader([]))
        #expect(canceled.exitCode == 128)
    }

    /// A secret on the command line was seen by other processes whether or not the run uses it: the warning is
    /// given as the run starts, also when there is nothing to unlock, no old passcode to check or no file to read.
    @Test func aSecretOnTheCommandLineIsWarnedOfEvenWhenUnused() {
        let harness = CommandHarness()
        defer { harness.restart() }
        let unlock = harness.run(["unlock-keychain", "-p", "unused-1"])
        #expect(unlock.errors.contains("warning: a password on the command line (-p) is visible to other processes"))
        let change = harness.run(["set-keychain-password", "-o", "unused-2", "-p", "1234"])
        #expect(change.exitCode == 0)
        #expect(change.errors.contains("(-o) is visible to other processes"))
        #expect(change.errors.contains("(-p) is visible to other processes"))
        let missing = harness.run(["import", "/nonexistent/file.p12", "-P", "unused-3"])
        #expect(missing.exitCode != 0)
        #expect(missing.errors.contains("(-P) is visible to other processes"))
        let quiet = harness.run(["-q", "unlock-keychain", "-p", "1234"])
        #expect(!quiet.errors.contains("visible to other processes"))
        for run in [unlock, change, missing] { #expect(!run.errors.contains("unused-")) }
    }

    @Test func changePasscodeAsksOldThenNewTwice() {
        let harness = CommandHarness()
        defer { harness.restart() }
        let first = ScriptedPasswordReader(["1234"])
        #expect(harness.run(["set-keychain-password"], passwords: first).exitCode == 0)
        #expect(first.prompts == [.newPasscode])
        #expect(first.prompts.first?.confirmation == "Retype New Password: ")

        let change = ScriptedPasswordReader(["1234", "5678"])
        #expect(harness.run(["set-keychain-password"], passwords: change).exitCode == 0)
        #expect(change.prompts == [.oldPasscode, .newPasscode])

        let wrongOld = harness.run(["set-keychain-password"], standardInput: "1234\n9999\n")
        #expect(wrongOld.exitCode == 51)
        #expect(wrongOld.errors.hasPrefix("security: SecKeychainChangePassword: The user name or passphrase"))
        #expect(!wrongOld.errors.contains("1234") && !wrongOld.errors.contains("9999"))

        // From standard input: the old passcode's line, then the new one's.
        #expect(harness.run(["set-keychain-password"], standardInput: "5678\nabcd\n").exitCode == 0)
        #expect(harness.run(["lock-keychain"]).exitCode == 0)
        #expect(harness.run(["unlock-keychain", "-p", "abcd"]).exitCode == 0)
    }

    @Test func emptyNewPasscodeIsRefused() {
        let harness = CommandHarness()
        defer { harness.restart() }
        let empty = harness.run(["set-keychain-password"], standardInput: "\n")
        #expect(empty.exitCode == ExitCode.forStatus(SecurityStatus.param))
        #expect(empty.errors.contains("a passcode cannot be empty"))
        #expect(harness.run(["set-keychain-password"], standardInput: "").exitCode == 128)
    }

    @Test func showKeychainInfoTextAndJSON() throws {
        let harness = CommandHarness()
        defer { harness.restart() }
        let none = harness.run(["show-keychain-info"])
        #expect(none.exitCode == 0)
        let lines = none.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Keychain \"\(harness.keychainPath)\" timeout=10s")
        #expect(lines.contains("    lock state: no passcode"))
        #expect(lines.contains("    passcode: none"))
        #expect(lines.contains("    passcode KDF: none (no passcode)"))
        #expect(lines.contains("    failed attempts: 0"))
        #expect(lines.contains("    retry after: now"))
        #expect(lines.contains { $0.hasPrefix("    unlocked class keys: ") })

        #expect(harness.run(["set-keychain-settings", "-t", "3"]).exitCode == 0)
        #expect(harness.run(["set-keychain-password", "-p", "1234"]).exitCode == 0)
        let set = harness.run(["show-keychain-info"]).output
        #expect(set.hasPrefix("Keychain \"\(harness.keychainPath)\" timeout=3s\n"))
        #expect(set.contains("    lock state: unlocked\n"))
        #expect(set.contains("    passcode: set\n"))
        #expect(set.contains("    grace period: 3s"))
        #expect(set.contains("    passcode KDF: PBKDF2-HMAC-SHA-256, "))

        let json = try harness.info()
        #expect(json["keychain"] as? String == harness.keychainPath)
        #expect(json["lockState"] as? String == "unlocked")
        #expect(json["hasPasscode"] as? Bool == true)
        #expect(json["gracePeriodSeconds"] as? Int == 3)
        #expect((json["kdfIterations"] as? Int ?? 0) >= 1_000)
        #expect(json["kdfMilliseconds"] is Double || json["kdfMilliseconds"] is Int)
        #expect(json["failedAttempts"] as? Int == 0)
        #expect(json["classKeyStore"] is String)
    }

    @Test func simulateRestartNeedsTheFirstUnlock() throws {
        let harness = CommandHarness()
        defer { harness.restart() }
        _ = harness.run(["add-generic-password", "-s", "svc", "-w"], password: "token")
        #expect(harness.run(["set-keychain-password", "-p", "1234"]).exitCode == 0)
        let restart = harness.run(["simulate-restart"])
        #expect(restart.exitCode == 0)
        #expect(restart.output.isEmpty && restart.errors.isEmpty)
        #expect(try harness.info()["lockState"] as? String == "before first unlock")
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).exitCode == 36)
        #expect(harness.run(["unlock-keychain", "-p", "1234"]).exitCode == 0)
        #expect(try harness.info()["lockState"] as? String == "unlocked")
    }

    @Test func removePasscode() throws {
        let harness = CommandHarness()
        defer { harness.restart() }
        _ = harness.run(["add-generic-password", "-s", "svc", "-w"], password: "token")
        #expect(harness.run(["set-keychain-password", "-p", "1234"]).exitCode == 0)
        #expect(harness.run(["set-keychain-password", "--remove"], standardInput: "0000\n").exitCode == 51)
        #expect(try harness.info()["hasPasscode"] as? Bool == true)

        let remove = harness.run(["set-keychain-password", "--remove"], standardInput: "1234\n")
        #expect(remove.exitCode == 0)
        #expect(remove.output.hasPrefix("0 items deleted with the passcode"))
        let json = try harness.info()
        #expect(json["hasPasscode"] as? Bool == false)
        #expect(json["lockState"] as? String == "no passcode")
        #expect(json["kdfIterations"] is NSNull)
        #expect(harness.run(["lock-keychain"]).exitCode == 0)
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "token\n")

        let again = harness.run(["set-keychain-password", "--remove"])
        #expect(again.exitCode == 0)
        #expect(again.errors.contains("no passcode is set"))
    }
}
