import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

/// What a Mac user types: lock and unlock without a passcode, macOS verbs this keychain does not have, and the
/// options macOS accepts (`-l`, `-p PROMPT`, `set-keychain-settings -l -u`, `-q`).
@Suite struct MacOSHabitsTests {
    static let lockNote =
        "security: the keychain has no passcode, so locking has no effect: items stay readable until a passcode "
        + "is set (security set-keychain-password)\n"
    static let unlockNote =
        "security: the keychain has no passcode, so there is nothing to unlock: items are readable until a "
        + "passcode is set (security set-keychain-password)\n"

    @Test func lockAndUnlockWithoutPasscodeSaySoAndChangeNothing() {
        let harness = CommandHarness()
        defer { harness.restart() }
        _ = harness.run(["add-generic-password", "-a", "me", "-s", "svc", "-w"], password: "token")
        let lock = harness.run(["lock-keychain"])
        #expect(lock.exitCode == 0)
        #expect(lock.output.isEmpty)
        #expect(lock.errors == Self.lockNote)
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "token\n")

        // The passcode line of piped input is read (never run as a command) and not needed.
        let unlock = harness.run(["unlock-keychain"], standardInput: "1234\n")
        #expect(unlock.exitCode == 0)
        #expect(unlock.errors == Self.unlockNote)
        #expect(harness.run(["-q", "lock-keychain"]).errors.isEmpty)

        // With a passcode, lock prints nothing, as on macOS.
        #expect(harness.run(["set-keychain-password"], standardInput: "1234\n").exitCode == 0)
        let locked = harness.run(["lock-keychain"])
        #expect(locked.exitCode == 0 && locked.errors.isEmpty)
    }

    @Test func unlockWithoutPasscodeInInteractiveModeSkipsNoCommand() {
        let harness = CommandHarness()
        let session = harness.runInteractive(standardInput: "unlock-keychain\n1234\nfind-generic-password -s none\n")
        #expect(session.exitCode == 44)
        #expect(session.errors.hasPrefix(Self.unlockNote))
        #expect(!session.errors.contains("1234"))
        #expect(session.errors.contains("SecKeychainSearchCopyNext"))
    }

    @Test(arguments: [
        ("create-keychain", "there is one keychain", "set-keychain-password"),
        ("list-keychains", "there is one keychain", "show-keychain-info"),
        ("default-keychain", "there is one keychain", "show-keychain-info"),
        ("delete-keychain", "there is one keychain", "delete-generic-password"),
        ("set-key-partition-list", "no access-control or partition lists", "security -G GROUP add-generic-password …"),
        ("set-generic-password-partition-list", "access group", "security -G GROUP add-generic-password …"),
        ("set-identity-preference", "identity preferences, smart cards, CMS and trust settings", "find-identity"),
        ("add-trusted-cert", "have no counterpart here", "find-identity"),
        ("authorizationdb", "macOS system service", "help"),
    ])
    func macOSVerbsGetOneLineWithTheNearestVerb(verb: String, why: String, nearest: String) {
        let run = CommandHarness().run([verb, "-k", "login.keychain"])
        #expect(run.exitCode == 64)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("security: \(verb) is not supported: "))
        #expect(run.errors.contains(why))
        #expect(run.errors.hasSuffix("the nearest command here is `\(nearest)`\n"))
        #expect(run.errors.filter { $0 == "\n" }.count == 1)
    }

    @Test func aKeychainOperandOrUnknownVerbGetsOneLine() {
        let harness = CommandHarness()
        for arguments in [
            ["find-generic-password", "-s", "svc", "login.keychain-db"], ["lock-keychain", "login.keychain"],
            ["dump-keychain", "/Users/me/Library/Keychains/login.keychain-db"], ["show-keychain-info", "x.keychain"],
        ] {
            let run = harness.run(arguments)
            #expect(run.exitCode == 64, "\(arguments)")
            #expect(
                run.errors == "security: naming a keychain (\"\(arguments.last!)\") is not supported: there is "
                    + "one keychain, the one in KEYCHAIN_HOME; leave the name out\n")
        }
        let unknown = harness.run(["bogus"])
        #expect(unknown.exitCode == 64)
        #expect(unknown.errors == "security: unknown command \"bogus\"; `security help` lists the commands\n")
    }

    @Test func globalLeaksAndPromptOptionsAreAccepted() throws {
        let harness = CommandHarness()
        let leaks = harness.run(["-l", "help"])
        #expect(leaks.exitCode == 0)
        #expect(leaks.errors == "security: warning: -l (run leaks before exiting) has no meaning here and is ignored\n")
        #expect(harness.run(["-q", "-l", "help"]).errors.isEmpty)

        let prompt = try CommandParser.parse(["-p", "kc> "])
        #expect(prompt.command == .interactive)
        #expect(prompt.output.prompt == "kc> ")
        let session = harness.runInteractive(
            standardInput: "add-generic-password -a me -s svc -w\npw\nfind-generic-password -s svc -w\n",
            arguments: ["-p", "kc> "])
        #expect(session.exitCode == 0)
        #expect(session.output == "pw\n")
        #expect(CommandHarness().run(["-p"]).exitCode == 64)
    }

    @Test func setKeychainSettingsTakesMacOSOptionsWithWarnings() throws {
        let harness = CommandHarness()
        let both = harness.run(["set-keychain-settings", "-l", "-u"])
        #expect(both.exitCode == 0)
        #expect(both.errors.contains("security: warning: -l (lock when the system sleeps) has no meaning here"))
        #expect(both.errors.contains("security: warning: without -t the grace period stays 10s"))
        #expect(try harness.info()["gracePeriodSeconds"] as? Int == 10)

        let timed = harness.run(["set-keychain-settings", "-l", "-t", "5"])
        #expect(timed.exitCode == 0)
        #expect(timed.errors.contains("-l (lock when the system sleeps)"))
        #expect(!timed.errors.contains("without -t"))
        #expect(try harness.info()["gracePeriodSeconds"] as? Int == 5)
        #expect(harness.run(["-q", "set-keychain-settings", "-l", "-u"]).errors.isEmpty)
    }

    @Test func quietSilencesTheCommandLinePasswordWarning() {
        let harness = CommandHarness()
        defer { harness.restart() }
        let loud = harness.run(["add-generic-password", "-a", "me", "-s", "one", "-w", "pw"])
        #expect(loud.errors.contains("warning: a password on the command line is visible to other processes"))
        let quiet = harness.run(["-q", "add-generic-password", "-a", "me", "-s", "two", "-w", "pw"])
        #expect(quiet.exitCode == 0)
        #expect(quiet.errors.isEmpty)
        #expect(harness.run(["-q", "set-keychain-password", "-p", "1234"]).errors.isEmpty)
        #expect(harness.run(["-q", "unlock-keychain", "-p", "1234"]).errors.isEmpty)
    }

    @Test func notFoundAnswersNameTheIdentityTheySearchedAs() {
        let harness = CommandHarness()
        let narrowed = harness.run(["-G", "LOCAL.TokenApp", "find-generic-password", "-s", "com.example.api"])
        #expect(narrowed.exitCode == 44)
        #expect(narrowed.errors.contains("security: searched as LOCAL.TokenApp (access groups: LOCAL.TokenApp)\n"))
        #expect(
            harness.run(["-q", "find-generic-password", "-s", "x"]).errors
                == SecurityCommandRunnerTests.notFound)
        let doctor = harness.run(["doctor", "copy", Self.queryFile(#"{"class":"genp","svce":"none"}"#)])
        #expect(doctor.exitCode == 44)
        #expect(
            doctor.output.contains(
                "    searched as TEAM1.com.example.app (access groups: TEAM1.com.example.app)\n"))
        #expect(harness.run(["delete-generic-password", "-s", "x"]).errors.contains("searched as "))
    }

    /// A temporary JSON file holding `json`, for `doctor`.
    static func queryFile(_ json: String) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).json")
        try? Data(json.utf8).write(to: url)
        return url.path
    }
}
