import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

@Suite struct SecurityCommandRunnerTests {
    static let notFound =
        "security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.\n"

    @Test func addThenFindPrintsMacOSLayoutWithoutTheSecret() {
        let harness = CommandHarness()
        let add = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w"], password: "s3cret")
        #expect(add.exitCode == 0)
        #expect(add.output.isEmpty)
        let find = harness.run(["find-generic-password", "-a", "alice", "-s", "svc"])
        #expect(find.exitCode == 0)
        let lines = find.output.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(4)) == [
                "keychain: \"\(harness.keychainPath)\"", "version: 512", "class: \"genp\"", "attributes:",
            ])
        #expect(lines.contains("    0x00000007 <blob>=\"svc\""))
        #expect(lines.contains("    0x00000008 <blob>=<NULL>"))
        #expect(lines.contains("    \"acct\"<blob>=\"alice\""))
        #expect(lines.contains("    \"svce\"<blob>=\"svc\""))
        #expect(lines.contains("    \"agrp\"<blob>=\"TEAM1.com.example.app\""))
        #expect(lines.contains("    \"icmt\"<blob>=<NULL>"))
        #expect(lines.contains { $0.hasPrefix("    \"cdat\"<timedate>=0x") && $0.hasSuffix("Z\\000\"") })
        #expect(!find.output.contains("s3cret"))
        #expect(!find.errors.contains("s3cret"))
    }

    @Test func findWithWPrintsOnlyThePassword() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w"], password: "s3cret")
        let find = harness.run(["find-generic-password", "-s", "svc", "-w"])
        #expect(find.exitCode == 0)
        #expect(find.output == "s3cret\n")
        #expect(find.errors.isEmpty)
    }

    @Test func findWithGPrintsThePasswordOnStandardError() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w"], password: "s3 \"cret\"")
        let find = harness.run(["find-generic-password", "-a", "alice", "-g"])
        #expect(find.exitCode == 0)
        #expect(find.output.contains("\"acct\"<blob>=\"alice\""))
        #expect(!find.output.contains("s3"))
        // As macOS prints it: the quotes inside as they are (scripts take what lies between the first and the last).
        #expect(find.errors == "password: \"s3 \"cret\"\"\n")
    }

    @Test func binaryPasswordsPrintAsHex() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-s", "bin", "-X", "00ff41"])
        #expect(harness.run(["find-generic-password", "-s", "bin", "-w"]).output == "00ff41\n")
        #expect(
            harness.run(["find-generic-password", "-s", "bin", "-g"]).errors == "password: 0x00FF41  \"\\000\\377A\"\n")
        _ = harness.run(["add-generic-password", "-s", "utf8", "-w"], password: "caf\u{E9}")
        #expect(harness.run(["find-generic-password", "-s", "utf8", "-w"]).output == "caf\u{E9}\n")
    }

    @Test func notFoundExits44WithMacOSMessage() {
        let harness = CommandHarness()
        let find = harness.run(["find-generic-password", "-s", "missing"])
        #expect(find.exitCode == 44)
        #expect(find.output.isEmpty)
        #expect(find.errors.hasPrefix(Self.notFound))
        #expect(
            find.errors.contains(
                "security: no item of class genp in the caller's groups matches the query; "
                    + "no item of this class in the caller's groups shares any of the query's key values\n"))
        // Then who the search ran as, and how to act as the app that stored the item.
        #expect(
            find.errors.contains(
                "security: searched as TEAM1.com.example.app (access groups: TEAM1.com.example.app)\n"))
        #expect(find.errors.hasSuffix("or `security --entitlements App.entitlements VERB …`\n"))
        #expect(harness.run(["find-generic-password", "-s", "missing", "-w"]).exitCode == 44)
        #expect(harness.run(["delete-generic-password", "-s", "missing"]).exitCode == 44)
        #expect(harness.run(["find-internet-password", "-s", "missing"]).exitCode == 44)
    }

    @Test func duplicateAddExits45AndSuggestsU() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w"], password: "one")
        let again = harness.run(
            ["add-generic-password", "-a", "alice", "-s", "svc", "-l", "other", "-w"], password: "two")
        #expect(again.exitCode == 45)
        let message =
            "security: SecKeychainItemCreateFromContent (<default>): "
            + "The specified item already exists in the keychain.\n"
        #expect(again.errors.hasPrefix(message))
        #expect(again.errors.contains("-U"))
        #expect(!again.errors.contains("two"))
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "one\n")
    }

    @Test func updateFlagUpdatesInPlaceKeepingTheItem() throws {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-j", "first", "-w"], password: "one")
        let query = ItemQuery(
            itemClass: .genericPassword, attributes: [.service: .string("svc")],
            returns: [.persistentReference, .attributes])
        let before = try harness.keychain().copyMatching(query)[0]
        let update = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-U", "-w"], password: "two")
        #expect(update.exitCode == 0)
        let after = try harness.keychain().copyMatching(query)[0]
        #expect(after.persistentReference == before.persistentReference)
        #expect(after.attributes?[.creationDate] == before.attributes?[.creationDate])
        #expect(after.attributes?[.comment] == .string("first"))
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "two\n")

        let comment = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-j", "second", "-U"])
        #expect(comment.exitCode == 0)
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "two\n")
        #expect(harness.run(["find-generic-password", "-s", "svc"]).output.contains("\"icmt\"<blob>=\"second\""))
    }

    @Test func updateFlagAddsWhenAbsentAndTouchesOnlyTheSamePrimaryKey() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "bob", "-s", "svc", "-w"], password: "bobs")
        let add = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-U", "-w"], password: "alices")
        #expect(add.exitCode == 0)
        #expect(harness.run(["find-generic-password", "-a", "alice", "-w"]).output == "alices\n")
        #expect(harness.run(["find-generic-password", "-a", "bob", "-w"]).output == "bobs\n")
    }

    @Test func deletePrintsTheItemAndRemovesOnlyTheFirstMatch() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w"], password: "one")
        _ = harness.run(["add-generic-password", "-a", "bob", "-s", "svc", "-w"], password: "two")
        let delete = harness.run(["delete-generic-password", "-s", "svc"])
        #expect(delete.exitCode == 0)
        #expect(delete.output.contains("\"acct\"<blob>=\"alice\""))
        #expect(delete.errors == "password has been deleted.\n")
        #expect(!delete.output.contains("deleted"))
        #expect(!delete.output.contains("one"))
        #expect(harness.run(["find-generic-password", "-a", "alice"]).exitCode == 44)
        #expect(harness.run(["find-generic-password", "-a", "bob", "-w"]).output == "two\n")
    }

    /// As macOS: a delete names what it deletes. Options that came out empty in a script are a usage error, and
    /// no item is deleted.
    @Test func aDeleteWithoutSearchOptionsIsAUsageErrorAndDeletesNothing() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w"], password: "one")
        _ = harness.run(["add-internet-password", "-a", "bob", "-s", "example.com", "-w"], password: "two")
        for verb in ["delete-generic-password", "delete-internet-password"] {
            let delete = harness.run([verb])
            #expect(delete.exitCode == 64)
            #expect(delete.errors.contains("name the item to delete"))
        }
        #expect(harness.run(["find-generic-password", "-a", "alice", "-w"]).output == "one\n")
        #expect(harness.run(["find-internet-password", "-a", "bob", "-w"]).output == "two\n")
    }

    @Test func dumpKeychainShowsSecretsOnlyWithD() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w"], password: "genp-secret")
        _ = harness.run(["add-internet-password", "-a", "bob", "-s", "example.com", "-w"], password: "inet-secret")
        let dump = harness.run(["dump-keychain"])
        #expect(dump.exitCode == 0)
        #expect(dump.output.contains("class: \"genp\""))
        #expect(dump.output.contains("class: \"inet\""))
        #expect(dump.output.contains("\"srvr\"<blob>=\"example.com\""))
        #expect(!dump.output.contains("secret"))
        #expect(!dump.output.contains("data:"))
        let withData = harness.run(["dump-keychain", "-d"])
        #expect(withData.exitCode == 0)
        #expect(withData.output.contains("data:\n\"genp-secret\"\n"))
        #expect(withData.output.contains("data:\n\"inet-secret\"\n"))
        #expect(withData.output.range(of: "genp")!.lowerBound < withData.output.range(of: "inet")!.lowerBound)
    }

    @Test func dumpOfAnEmptyKeychainPrintsNothingButSaysWhoseGroupsItSearched() {
        let harness = CommandHarness()
        let dump = harness.run(["dump-keychain", "-d"])
        #expect(dump.exitCode == 0)
        #expect(dump.output.isEmpty)
        #expect(
            dump.errors.hasPrefix(
                "security: dump-keychain: no items in the groups this command can see\n"
                    + "security: searched as TEAM1.com.example.app (access groups: TEAM1.com.example.app)\n"
                    + "security: an app's items are in the app's groups: act as the app with `security -G "))
        #expect(harness.run(["-q", "dump-keychain"]).errors.isEmpty)
        _ = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w"], password: "pw")
        #expect(harness.run(["dump-keychain"]).errors.isEmpty)
    }

    @Test func internetPasswordsRoundTrip() {
        let harness = CommandHarness()
        let add = harness.run(
            [
                "add-internet-password", "-a", "bob", "-s", "example.com", "-r", "https", "-P", "443", "-p", "/login",
                "-t", "form", "-d", "realm", "-w",
            ], password: "inet-pw")
        #expect(add.exitCode == 0)
        let find = harness.run(["find-internet-password", "-s", "example.com", "-r", "htps"])
        #expect(find.exitCode == 0)
        let lines = find.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("class: \"inet\""))
        #expect(lines.contains("    0x00000007 <blob>=\"example.com\""))
        #expect(lines.contains("    \"ptcl\"<uint32>=\"htps\""))
        #expect(lines.contains("    \"port\"<uint32>=0x000001BB "))
        #expect(lines.contains("    \"path\"<blob>=\"/login\""))
        #expect(lines.contains("    \"atyp\"<blob>=\"form\""))
        #expect(lines.contains("    \"sdmn\"<blob>=\"realm\""))
        #expect(harness.run(["find-internet-password", "-a", "bob", "-P", "443", "-w"]).output == "inet-pw\n")
        #expect(harness.run(["find-internet-password", "-s", "example.com", "-r", "http"]).exitCode == 44)
        let update = harness.run(
            [
                "add-internet-password", "-a", "bob", "-s", "example.com", "-r", "htps", "-P", "443", "-p", "/login",
                "-t", "form", "-d", "realm", "-U", "-w",
            ], password: "inet-pw2")
        #expect(update.exitCode == 0)
        #expect(harness.run(["find-internet-password", "-s", "example.com", "-w"]).output == "inet-pw2\n")
        let delete = harness.run(["delete-internet-password", "-s", "example.com"])
        #expect(delete.exitCode == 0)
        #expect(delete.errors == "password has been deleted.\n")
        #expect(harness.run(["find-internet-password", "-s", "example.com"]).exitCode == 44)
    }

    @Test func internetPasswordDefaultsShowAsMacOSDoes() {
        let harness = CommandHarness()
        _ = harness.run(["add-internet-password", "-a", "bob", "-s", "host", "-w"], password: "x")
        let lines = harness.run(["find-internet-password", "-s", "host"]).output.split(separator: "\n").map(String.init)
        #expect(lines.contains("    \"atyp\"<blob>=\"dflt\""))
        #expect(lines.contains("    \"port\"<uint32>=0x00000000 "))
        #expect(lines.contains("    \"ptcl\"<uint32>=0x00000000 "))
        #expect(lines.contains("    \"sdmn\"<blob>=<NULL>"))
    }

    @Test func passwordOnTheCommandLineWorksWithAWarning() {
        let harness = CommandHarness()
        let add = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w", "argv-secret"])
        #expect(add.exitCode == 0)
        #expect(add.errors.contains("warning: a password on the command line is visible to other processes"))
        #expect(!add.errors.contains("argv-secret"))
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "argv-secret\n")
        let prompted = harness.run(["add-generic-password", "-a", "bob", "-s", "svc", "-w"], password: "quiet")
        #expect(prompted.errors.isEmpty)
    }

    @Test func passwordIsReadFromStandardInputThatIsNotATerminal() throws {
        let harness = CommandHarness()
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        let input = Array("from-stdin\r\nignored second line\n".utf8)
        #expect(input.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) } == input.count)
        close(descriptors[1])
        let add = harness.run(
            ["add-generic-password", "-a", "alice", "-s", "svc", "-w"],
            passwords: LinePasswordReader(descriptor: descriptors[0]))
        #expect(add.exitCode == 0)
        #expect(add.errors.isEmpty)
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "from-stdin\n")
    }

    @Test func emptyStandardInputCancelsTheAdd() {
        let harness = CommandHarness()
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        close(descriptors[1])
        defer { close(descriptors[0]) }
        let add = harness.run(
            ["add-generic-password", "-s", "svc", "-w"],
            passwords: LinePasswordReader(descriptor: descriptors[0]))
        // As macOS when its prompt ends: exit 1, nothing printed.
        #expect(add.exitCode == 1)
        #expect(add.errors.isEmpty)
        #expect(harness.run(["find-generic-password", "-s", "svc"]).exitCode == 44)
        #expect(harness.run(["add-generic-password", "-s", "svc", "-w"], password: nil).exitCode == 1)
    }

    @Test func accessListOptionsWarnAndHaveNoEffect() {
        let harness = CommandHarness()
        let add = harness.run(["add-generic-password", "-s", "svc", "-A", "-T", "/usr/bin/git", "-w"], password: "p")
        #expect(add.exitCode == 0)
        #expect(add.errors.contains("-A, -T /usr/bin/git ignored"))
    }

    @Test func accessGroupAloneActsAsThatGroup() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-s", "mine", "-w"], password: "p")
        let other = harness.run(["-G", "TEAM2.other", "add-generic-password", "-s", "theirs", "-w"], password: "q")
        #expect(other.exitCode == 0)
        #expect(
            harness.run(["-G", "TEAM2.other", "find-generic-password", "-s", "theirs"]).output
                .contains("\"agrp\"<blob>=\"TEAM2.other\""))
        #expect(harness.run(["-G", "TEAM2.other", "find-generic-password", "-s", "mine"]).exitCode == 44)
        #expect(harness.run(["find-generic-password", "-s", "theirs"]).exitCode == 44)
        #expect(!harness.run(["-G", "TEAM2.other", "dump-keychain"]).output.contains("mine"))
    }

    @Test func entitlementsFileChoosesTheIdentity() throws {
        let harness = CommandHarness()
        let plist = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cli-\(UUID().uuidString).entitlements")
        defer { try? FileManager.default.removeItem(at: plist) }
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>application-identifier</key><string>TEAM9.com.example.tool</string>
            <key>keychain-access-groups</key><array><string>TEAM9.shared</string></array>
            </dict></plist>
            """.utf8
        ).write(to: plist)
        let add = harness.run(["--entitlements", plist.path, "add-generic-password", "-s", "svc", "-w"], password: "p")
        #expect(add.exitCode == 0)
        let find = harness.run(["--entitlements", plist.path, "find-generic-password", "-s", "svc"])
        #expect(find.output.contains("\"agrp\"<blob>=\"TEAM9.shared\""))
        let inAppGroup = harness.run(
            ["--entitlements", plist.path, "-G", "TEAM9.com.example.tool", "add-generic-password", "-s", "svc", "-w"],
            password: "p")
        #expect(inAppGroup.exitCode == 0)
        let missing = harness.run(["--entitlements", plist.path, "-G", "TEAM1.not-mine", "find-generic-password"])
        #expect(missing.exitCode == 30)  // errSecMissingEntitlement, -34018
        #expect(missing.errors.hasPrefix("security: SecKeychainSearchCopyNext: A required entitlement isn't present."))
        let unreadable = harness.run(["--entitlements", "/nonexistent.entitlements", "dump-keychain"])
        #expect(unreadable.exitCode == ExitCode.forStatus(SecurityStatus.param))
        #expect(unreadable.errors.contains("/nonexistent.entitlements"))
    }

    @Test func usageErrorsExit64WithUsageOnStandardError() {
        let harness = CommandHarness()
        for arguments in [
            ["find-generic-password", "-Z"], ["add-generic-password", "-X", "1"],
            ["find-internet-password", "-P", "65536"], ["dump-keychain", "-r"],
        ] {
            let run = harness.run(arguments)
            #expect(run.exitCode == 64, "\(arguments)")
            #expect(run.output.isEmpty)
            #expect(run.errors.hasPrefix("security: "))
            #expect(run.errors.contains("Usage: "))
        }
    }

    @Test func helpPrintsUsageOnStandardOutput() {
        let harness = CommandHarness()
        let overview = harness.run(["help"])
        #expect(overview.exitCode == 0)
        #expect(overview.output.contains("add-generic-password"))
        #expect(overview.output.contains("--entitlements FILE"))
        let verb = harness.run(["help", "add-internet-password"])
        #expect(verb.output.hasPrefix("Usage: add-internet-password"))
        // `VERB -h` is answered as macOS answers it: the usage on standard error, as a usage error.
        let option = harness.run(["find-generic-password", "-h"])
        #expect(option.exitCode == ExitCode.usage)
        #expect(option.errors.hasPrefix("Usage: find-generic-password"))
    }

    @Test func helpListsKeychaindsVerbsAndTheirUsage() {
        let harness = CommandHarness()
        let overview = harness.run(["help"]).output
        #expect(overview.contains("daemon "))
        #expect(overview.contains("apps "))
        #expect(harness.run(["help", "daemon"]).output.hasPrefix("Usage: daemon status"))
        #expect(harness.run(["help", "apps"]).output.hasPrefix("Usage: apps list"))
        let wrong = harness.run(["apps", "show"])
        #expect(wrong.exitCode == ExitCode.usage)
        #expect(wrong.errors.contains("Usage: apps list"))
    }

    @Test func exitCodesAreTheLowByteOfTheStatusAsOnMacOS() {
        #expect(ExitCode.forStatus(SecurityStatus.itemNotFound) == 44)
        #expect(ExitCode.forStatus(SecurityStatus.duplicateItem) == 45)
        #expect(ExitCode.forStatus(SecurityStatus.missingEntitlement) == 30)
        #expect(ExitCode.forStatus(SecurityStatus.userCanceled) == 128)
        #expect(ExitCode.forStatus(-256) == 1)
    }
}
