import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

/// Answers a new item's password prompt as a terminal user whose two entries differ `mismatches` times, then
/// match; or who presses Control-D.
private final class MismatchingPasswordReader: PasswordReader {
    private var mismatches: Int
    private let password: String?

    init(mismatches: Int, then password: String?) {
        self.mismatches = mismatches
        self.password = password
    }

    func readNewItemPassword() throws(PasswordReadError) -> [UInt8] {
        if mismatches > 0 {
            mismatches -= 1
            throw .mismatch
        }
        guard let password else { throw .canceled }
        return Array(password.utf8)
    }
}

/// Behaviours of macOS's `security` (SecurityTool/macOS in Apple's Security sources) that scripts and people
/// notice: prompts, the global options, help and usage, `-X`, `-P`, `dump-keychain`.
@Suite struct MacOSToolParityTests {
    @Test func addPromptAsksThreeTimesWhenTheEntriesDiffer() {
        let harness = CommandHarness()
        let second = harness.run(
            ["add-generic-password", "-a", "a", "-s", "svc", "-w"],
            passwords: MismatchingPasswordReader(mismatches: 2, then: "pw"))
        #expect(second.exitCode == 0)
        #expect(second.errors == "passwords don't match\npasswords don't match\n")
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "pw\n")

        let never = harness.run(
            ["add-generic-password", "-a", "b", "-s", "svc", "-w"],
            passwords: MismatchingPasswordReader(mismatches: 3, then: "pw"))
        #expect(never.exitCode == 1)
        #expect(never.output.isEmpty)
        #expect(never.errors == "passwords don't match\npasswords don't match\npasswords don't match\n")
        #expect(harness.run(["find-generic-password", "-a", "b"]).exitCode == 44)
    }

    @Test func addPromptEndedByControlDExitsOneSilently() {
        let run = CommandHarness().run(["add-internet-password", "-a", "a", "-s", "h", "-w"], password: nil)
        #expect(run.exitCode == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors.isEmpty)
    }

    @Test func passwordOptionGivenLastPromptsAsMacOSDoes() {
        let harness = CommandHarness()
        let generic = harness.run(["add-generic-password", "-a", "a", "-s", "p1", "-p"], password: "pw1")
        #expect(generic.exitCode == 0)
        #expect(generic.errors.isEmpty)
        #expect(harness.run(["find-generic-password", "-s", "p1", "-w"]).output == "pw1\n")
        // add-internet-password's -p is the path, yet given last without a value it asks for the password too.
        let internet = harness.run(["add-internet-password", "-a", "a", "-s", "h", "-p"], password: "pw2")
        #expect(internet.exitCode == 0)
        #expect(harness.run(["find-internet-password", "-s", "h", "-w"]).output == "pw2\n")
    }

    @Test func unlockAsksWithMacOSsPromptForTheDefaultKeychain() {
        let harness = CommandHarness()
        #expect(harness.run(["set-keychain-password"], standardInput: "1234\n").exitCode == 0)
        #expect(harness.run(["lock-keychain"]).exitCode == 0)
        let reader = ScriptedPasswordReader(["1234"])
        let unlock = harness.run(["unlock-keychain"], passwords: reader)
        #expect(unlock.exitCode == 0)
        #expect(reader.prompts == [PasswordPrompt("password to unlock default: ")])
    }

    @Test func globalOptionsBundleAsGetoptReadsThem() throws {
        let run = CommandHarness().run(["-qv", "find-generic-password", "-s", "x"])
        #expect(run.exitCode == 44)
        #expect(
            run.errors == """
                find-generic-password "-s" "x"
                security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.
                security: OSStatus -25300, exit code 44

                """)
        let prompt = try CommandParser.parse(["-qp", "> "])
        #expect(prompt.command == .interactive)
        #expect(prompt.output.quiet && prompt.output.prompt == "> ")
        #expect(throws: UsageError.self) { try CommandParser.parse(["-qz", "lock-keychain"]) }
    }

    @Test func verboseFirstEchoesTheVerbWithSecretsHidden() {
        let harness = CommandHarness()
        let add = harness.run(["-v", "add-generic-password", "-a", "a b", "-s", "svc", "-w", "hunter2"])
        #expect(add.exitCode == 0)
        #expect(add.errors.hasPrefix("add-generic-password \"-a\" \"a b\" \"-s\" \"svc\" \"-w\" (hidden)\n"))
        #expect(!add.errors.contains("hunter2"))
        let attached = harness.run(["-v", "add-generic-password", "-a", "b", "-s", "svc", "-Uwhunter3"])
        #expect(attached.errors.hasPrefix("add-generic-password \"-a\" \"b\" \"-s\" \"svc\" \"-Uw\" (hidden)\n"))
        #expect(!attached.errors.contains("hunter3"))
    }

    @Test func oddHexDigitsAreStillRefused() {
        let run = CommandHarness().run(["add-generic-password", "-a", "a", "-s", "s", "-X", "fff"])
        #expect(run.exitCode == 64)
    }

    @Test func dumpWritesToTheFileOptionAndFailsWithOne() throws {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "a", "-s", "svc", "-w"], password: "pw")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        let dump = harness.run(["dump-keychain", "-o", file.path])
        #expect(dump.exitCode == 0)
        #expect(dump.output.isEmpty)
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written == harness.run(["dump-keychain"]).output)
        #expect(written.contains("\"svce\"<blob>=\"svc\""))

        let unwritable = harness.run(["dump-keychain", "-o", "/nonexistent-dir/dump.txt"])
        #expect(unwritable.exitCode == 1)
        #expect(
            unwritable.errors == "security: dump-keychain: I/O error.\n"
                + "security: cannot create /nonexistent-dir/dump.txt: No such file or directory\n")
    }

    @Test func dumpOfALockedKeychainExitsWithOne() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "a", "-s", "svc", "-w"], password: "pw")
        #expect(harness.run(["set-keychain-password"], standardInput: "1234\n").exitCode == 0)
        _ = harness.run(["set-keychain-settings", "-t", "0"])
        _ = harness.run(["lock-keychain"])
        let dump = harness.run(["dump-keychain"])
        #expect(dump.exitCode == 1)
        #expect(dump.errors.hasPrefix("security: SecKeychainSearchCopyNext: "))
    }

    @Test func verbHelpOptionPrintsUsageToStandardError() {
        let run = CommandHarness().run(["find-generic-password", "-h"])
        #expect(run.exitCode == 64)
        #expect(run.output.isEmpty)
        #expect(run.errors == SecurityVerb.findGenericPassword.usage + "\n")
    }

    @Test func helpForAnUnknownCommandExitsOne() {
        let run = CommandHarness().run(["help", "nosuch"])
        #expect(run.exitCode == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors == "security: help: no such command: nosuch\n")
        let global = CommandHarness().run(["-h", "find-generic-password"])
        #expect(global.exitCode == 0)
        #expect(global.output == SecurityVerb.findGenericPassword.usage + "\n")
    }

    @Test func noCommandPrintsTheUsageToStandardOutput() {
        let run = CommandHarness().run([])
        #expect(run.exitCode == 64)
        #expect(run.output == SecurityVerb.overview + "\n")
        #expect(run.errors.isEmpty)
    }

    @Test func portThatIsNoNumberIsNoPortAsAtoiReadsIt() {
        let harness = CommandHarness()
        _ = harness.run(["add-internet-password", "-a", "a", "-s", "h", "-P", "443", "-w"], password: "pw")
        let find = harness.run(["find-internet-password", "-s", "h", "-P", "abc", "-w"])
        #expect(find.exitCode == 0)
        #expect(find.output == "pw\n")
        #expect(harness.run(["find-internet-password", "-s", "h", "-P", "443x", "-w"]).output == "pw\n")
        #expect(harness.run(["find-internet-password", "-s", "h", "-P", "70000"]).exitCode == 64)
    }
}
