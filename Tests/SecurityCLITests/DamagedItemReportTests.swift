import Foundation
import KeychainCore
import KeychainStore
import Testing

@testable import SecurityCLI

/// `dump-keychain` and `backup-keychain` list and save the intact items when one is damaged, and say how many
/// they left out.
@Suite struct DamagedItemReportTests {
    /// A harness whose keychain holds alice, bob and carol, alice's attributes damaged on disk.
    private func harnessWithOneDamagedItem() throws -> CommandHarness {
        let harness = CommandHarness()
        for account in ["alice", "bob", "carol"] {
            #expect(
                harness.run(["add-generic-password", "-a", account, "-s", "s", "-w", "pw-\(account)"]).exitCode
                    == 0)
        }
        let database = try Database(path: harness.keychainPath)
        defer { database.close() }
        let rows = try database.statement("SELECT rowid, meta FROM genp ORDER BY rowid").rows()
        var meta = try #require(rows.first?[1].blobValue)
        meta[meta.count / 2] ^= 0x01
        try database.statement("UPDATE genp SET meta = ? WHERE rowid = ?").run([.blob(meta), rows[0][0]])
        return harness
    }

    @Test func dumpListsTheIntactItemsAndCountsTheDamagedOne() throws {
        let harness = try harnessWithOneDamagedItem()
        let run = harness.run(["dump-keychain"])
        #expect(run.exitCode == 0)
        #expect(run.output.contains("\"bob\"") && run.output.contains("\"carol\""))
        #expect(!run.output.contains("\"alice\""))
        #expect(run.errors.contains("1 damaged item"))
    }

    @Test func backupSaysWhatItLeftOut() throws {
        let harness = try harnessWithOneDamagedItem()
        let file = harness.home.appendingPathComponent("out.backup").path
        let run = harness.run(["backup-keychain", file], standardInput: "pw\npw\n")
        #expect(run.exitCode == 0)
        #expect(run.output.contains("2 items written"))
        #expect(run.output.contains("1 damaged item left out"))
        let json = harness.run(["backup-keychain", "--json", file + "2"], standardInput: "pw\npw\n")
        #expect(json.output.contains("\"damagedCount\":1"))
    }
}
