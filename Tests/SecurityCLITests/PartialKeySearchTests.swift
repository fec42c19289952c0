import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

/// Which item `add -U`, `find` and `delete` pick when the options name only part of a primary key, or all of it
/// with other match options besides, as macOS's `find_first_generic_password` and
/// `find_first_internet_password` (keychain_find.c) pick it.
@Suite struct PartialKeySearchTests {
    private func internetItems(_ harness: CommandHarness) throws -> [ItemResult] {
        try harness.keychain().copyMatching(
            ItemQuery(itemClass: .internetPassword, limit: .all, returns: [.attributes, .data]))
    }

    @Test func updateWithPartOfAnInternetKeyUpdatesTheItemItFinds() throws {
        let harness = CommandHarness()
        let add = harness.run(
            ["add-internet-password", "-a", "a", "-s", "h", "-r", "htps", "-P", "443", "-w"], password: "old")
        #expect(add.exitCode == 0)
        let update = harness.run(["add-internet-password", "-a", "a", "-s", "h", "-U", "-w"], password: "new")
        #expect(update.exitCode == 0)
        #expect(update.errors.isEmpty)
        let items = try internetItems(harness)
        #expect(items.count == 1)
        #expect(items.first?.data?.bytes == Array("new".utf8))
        #expect(items.first?.attributes?[.protocol] == .string("htps"))
        #expect(items.first?.attributes?[.port] == .number(443))
    }

    @Test func updateWithPartOfAKeyAddsWhenNothingMatchesTheGivenAttributes() throws {
        let harness = CommandHarness()
        _ = harness.run(
            ["add-internet-password", "-a", "a", "-s", "h", "-l", "Mine", "-r", "htps", "-w"], password: "1")
        // The search includes the label, which defaults to the server: "Mine" does not match.
        let update = harness.run(["add-internet-password", "-a", "a", "-s", "h", "-U", "-w"], password: "2")
        #expect(update.exitCode == 0)
        #expect(try internetItems(harness).count == 2)
    }

    @Test func updateWithoutLabelResetsItToTheServiceAsMacOSDoes() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "a", "-s", "svc", "-l", "Custom", "-w"], password: "1")
        let update = harness.run(["add-generic-password", "-a", "a", "-s", "svc", "-U", "-w"], password: "2")
        #expect(update.exitCode == 0)
        let found = harness.run(["find-generic-password", "-a", "a", "-s", "svc"])
        #expect(found.output.contains("    0x00000007 <blob>=\"svc\"\n"))
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "2\n")
    }

    @Test func genericUpdateSearchesOnTheKeyOnlyAndUpdatesOtherAttributes() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "a", "-s", "svc", "-j", "first", "-w"], password: "1")
        let update = harness.run(
            ["add-generic-password", "-a", "a", "-s", "svc", "-j", "second", "-U", "-w"], password: "2")
        #expect(update.exitCode == 0)
        let found = harness.run(["find-generic-password", "-a", "a", "-s", "svc", "-g"])
        #expect(found.output.contains("\"icmt\"<blob>=\"second\"\n"))
        #expect(found.errors == "password: \"2\"\n")
    }

    @Test func findAndDeleteWithAccountAndServiceIgnoreOtherMatchOptions() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "a", "-s", "svc", "-l", "L", "-j", "c", "-w"], password: "pw")
        let find = harness.run(
            ["find-generic-password", "-a", "a", "-s", "svc", "-l", "other", "-j", "x", "-D", "k", "-G", "g", "-w"])
        #expect(find.exitCode == 0)
        #expect(find.output == "pw\n")
        let delete = harness.run(["delete-generic-password", "-a", "a", "-s", "svc", "-l", "other", "-c", "abcd"])
        #expect(delete.exitCode == 0)
        #expect(delete.errors == "password has been deleted.\n")
        // With only one of them, the other options still filter.
        _ = harness.run(["add-generic-password", "-a", "a", "-s", "svc", "-l", "L", "-w"], password: "pw")
        #expect(harness.run(["find-generic-password", "-s", "svc", "-l", "other"]).exitCode == 44)
    }

    @Test func internetFindWithTheWholeKeyIgnoresOtherMatchOptions() {
        let harness = CommandHarness()
        let key = ["-a", "a", "-s", "h", "-r", "htps", "-P", "443", "-p", "/x", "-d", "dom", "-t", "form"]
        _ = harness.run(["add-internet-password"] + key + ["-l", "L", "-w"], password: "pw")
        let whole = harness.run(["find-internet-password"] + key + ["-l", "other", "-j", "x", "-w"])
        #expect(whole.exitCode == 0)
        #expect(whole.output == "pw\n")
        // Without the path, the label still filters.
        let partial = harness.run(
            [
                "find-internet-password", "-a", "a", "-s", "h", "-r", "htps", "-P", "443", "-d", "dom", "-t", "form",
                "-l", "other",
            ])
        #expect(partial.exitCode == 44)
    }
}
