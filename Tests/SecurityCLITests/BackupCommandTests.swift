import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

@Suite struct BackupCommandTests {
    @Test func backupThenRestoreIntoAnotherHome() throws {
        let source = CommandHarness()
        let target = CommandHarness()
        let file = source.home.deletingLastPathComponent()
            .appendingPathComponent("security-cli-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = source.run(["add-generic-password", "-a", "me", "-s", "moves", "-w"], password: "token")
        let keychain = try source.keychain()
        try keychain.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.service: .string("stays")],
                accessibility: .whenUnlockedThisDeviceOnly, data: Array("local".utf8)))

        let reader = ScriptedPasswordReader(["backup pw"])
        let backup = source.run(["backup-keychain", file.path], passwords: reader)
        #expect(backup.exitCode == 0)
        #expect(reader.prompts == [.newBackup])
        #expect(
            backup.output
                == "1 item written to \"\(file.path)\"\n1 item left out (ThisDeviceOnly, access control or token: "
                + "they never leave this machine)\n")

        let wrong = target.run(["restore-keychain", file.path], standardInput: "nope\n")
        #expect(wrong.exitCode == 51)
        #expect(wrong.errors.hasPrefix("security: restore-keychain: The user name or passphrase"))
        #expect(!wrong.errors.contains("nope"))
        #expect(target.run(["find-generic-password", "-s", "moves"]).exitCode == 44)

        let restore = target.run(["restore-keychain", "-p", "backup pw", file.path])
        #expect(restore.exitCode == 0)
        #expect(restore.errors.contains("warning: a password on the command line (-p)"))
        #expect(restore.output.hasPrefix("1 item restored from \"\(file.path)\"\n"))
        #expect(
            restore.output.contains("1 item left out of the backup when it was made (they never leave their machine)"))
        #expect(target.run(["find-generic-password", "-s", "moves", "-w"]).output == "token\n")
        #expect(target.run(["find-generic-password", "-s", "stays"]).exitCode == 44)
    }

    @Test func backupRefusesAnExistingFile() throws {
        let harness = CommandHarness()
        let file = harness.home.deletingLastPathComponent()
            .appendingPathComponent("security-cli-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("keep".utf8).write(to: file)
        let run = harness.run(["backup-keychain", file.path], standardInput: "pw\n")
        #expect(run.exitCode != 0)
        #expect(try Data(contentsOf: file) == Data("keep".utf8))
    }
}
