import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

/// `security -i` reading commands and passwords from one input that is not a terminal: a password line that a
/// failed command never read is skipped and wiped, never run or printed as a command.
@Suite struct InteractiveSecretTests {
    /// A line that makes the command fail before it reads its password: the keychain cannot be opened.
    private static let unopenable = "--entitlements /nonexistent/cli.entitlements"

    private func victimSecret(_ harness: CommandHarness) throws -> String? {
        let found = try? harness.keychain().copyMatching(
            ItemQuery(itemClass: .genericPassword, attributes: [.service: .string("victim")], returns: .data))
        return found?.first?.data.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    @Test func passwordLinesFollowTheirCommand() throws {
        let harness = CommandHarness()
        let run = harness.runInteractive(
            standardInput: "add-generic-password -s victim -w\nvictim-pw\nfind-generic-password -s victim -w\n")
        #expect(run.exitCode == 0)
        #expect(run.output == "victim-pw\n")
        #expect(try victimSecret(harness) == "victim-pw")
    }

    @Test func aFailedAddSkipsItsPasswordLineInsteadOfRunningIt() throws {
        let harness = CommandHarness()
        let run = harness.runInteractive(
            standardInput: """
                add-generic-password -s victim -w
                victim-pw
                \(Self.unopenable) add-generic-password -s other -w
                delete-generic-password -s victim
                find-generic-password -s victim -w

                """)
        #expect(try victimSecret(harness) == "victim-pw")
        #expect(!(run.output + run.errors).contains("password has been deleted"))
        #expect(!run.errors.contains("delete-generic-password"))
        #expect(run.output == "victim-pw\n")  // the line after the skipped one runs
        #expect(run.errors.contains("skipped the password line"))
        #expect(run.exitCode == ExitCode.forStatus(SecurityStatus.param))
    }

    @Test func aFailedUnlockNeverEchoesItsPasscode() throws {
        let harness = CommandHarness()
        for verb in ["unlock-keychain", "add-internet-password -s host -w", "restore-keychain /nonexistent.backup"] {
            let run = harness.runInteractive(
                standardInput: "\(Self.unopenable) \(verb)\nHunter2Secret\nfind-generic-password -s none\n")
            #expect(!run.errors.contains("Hunter2Secret"), "\(verb)")
            #expect(!run.output.contains("Hunter2Secret"), "\(verb)")
            #expect(run.errors.contains("SecKeychainSearchCopyNext"), "\(verb): the next command runs")
            #expect(run.exitCode == 44)
        }
    }

    @Test func aPasswordChangeWhoseLineCountIsUnknownEndsTheSession() throws {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-s", "victim", "-w", "victim-pw"])
        // Whether set-keychain-password reads one line or two depends on a passcode the failed open never saw.
        let run = harness.runInteractive(
            standardInput: """
                \(Self.unopenable) set-keychain-password
                Hunter2Secret
                delete-generic-password -s victim

                """)
        #expect(try victimSecret(harness) == "victim-pw")
        #expect(!run.errors.contains("Hunter2Secret") && !run.output.contains("Hunter2Secret"))
        #expect(!(run.output + run.errors).contains("password has been deleted"))
        #expect(run.errors.contains("-i stopped"))
        #expect(run.exitCode == ExitCode.forStatus(SecurityStatus.param))
    }

    @Test func aMistypedPasswordCommandEndsTheSession() throws {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-s", "victim", "-w", "victim-pw"])
        for line in ["add-generic-password -Z -s x -w", "add-generic-pasword -s x -w", "unlock-keychain -x"] {
            let run = harness.runInteractive(standardInput: "\(line)\ndelete-generic-password -s victim\n")
            #expect(try victimSecret(harness) == "victim-pw", "\(line)")
            #expect(!(run.output + run.errors).contains("password has been deleted"), "\(line)")
            #expect(run.errors.contains("-i stopped"), "\(line)")
            #expect(run.exitCode == ExitCode.usage)
        }
    }

    @Test func aPasswordLineTooManyIsNeverShown() throws {
        let harness = CommandHarness()
        defer { harness.restart() }
        // Written for a keychain with a passcode; this one has none, so only one line is read, as the new one.
        let run = harness.runInteractive(
            standardInput: "set-keychain-password\nold-Hunter2\nnew-Hunter2\nfind-generic-password -s none\n")
        #expect(!run.errors.contains("Hunter2") && !run.output.contains("Hunter2"))
        #expect(run.errors.contains("-i stopped"))
        #expect(!run.errors.contains("SecKeychainSearchCopyNext"))
        #expect(run.exitCode == ExitCode.usage)
    }

    @Test func doctorCannotSwallowTheSessionsInput() {
        let harness = CommandHarness()
        let run = harness.runInteractive(
            standardInput: "doctor copy\nadd-generic-password -s svc -w\nsecret-pw\nfind-generic-password -s svc -w\n")
        #expect(run.errors.contains("doctor needs a FILE in -i"))
        #expect(run.output == "secret-pw\n")
        #expect(run.exitCode == ExitCode.usage)
    }

    @Test func otherMistakesStillLetTheSessionGoOn() {
        let harness = CommandHarness()
        let run = harness.runInteractive(standardInput: "bogus-verb\nfind-generic-password -s none\n")
        #expect(run.errors.contains("unknown command \"bogus-verb\""))
        #expect(run.exitCode == 44)
    }
}
