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

    /// `-G` and `--entitlements` make a command act as an app, which a backup or restore of every group never
    /// does: refused with errSecMissingEntitlement before the keychain is read or written.
    @Test(arguments: [["-G", "TEAM2.other"], ["--entitlements", "app.plist"]])
    func backupAndRestoreRefuseTheOptionsThatActAsAnApp(options: [String]) throws {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-s", "mine", "-w"], password: "token")
        let file = harness.home.deletingLastPathComponent()
            .appendingPathComponent("security-cli-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let backup = harness.run(options + ["backup-keychain", "-p", "pw", file.path])
        #expect(backup.exitCode == ExitCode.forStatus(SecurityStatus.missingEntitlement))
        #expect(backup.errors.contains("\(options[0]) would make it act as an app"), "\(backup.errors)")
        #expect(!FileManager.default.fileExists(atPath: file.path))

        #expect(harness.run(["backup-keychain", "-p", "pw", file.path]).exitCode == 0)
        let target = CommandHarness()
        let restore = target.run(options + ["restore-keychain", "-p", "pw", file.path])
        #expect(restore.exitCode == ExitCode.forStatus(SecurityStatus.missingEntitlement))
        #expect(restore.errors.contains("restore-keychain writes items into every access group"))
        #expect(target.run(["find-generic-password", "-s", "mine"]).exitCode == 44)
    }
}
