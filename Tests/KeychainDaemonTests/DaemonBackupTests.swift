import Foundation
import KeychainCore
import KeychainRequests
import KeychainTestSupport
import KeychainWire
import Testing

/// Backups through keychaind: the owner's `security` makes and restores them, the file written and read by the
/// command with its own rights, only the bytes crossing the socket; an app cannot make one.
@Suite(.serialized) struct DaemonBackupTests {
    private func backupPath() -> String { NSTemporaryDirectory() + "kd-backup-" + UUID().uuidString.prefix(8) }

    @Test func theOwnerBacksUpAndRestoresEveryAppsItemsThroughTheDaemon() throws {
        let fixture = try OwnerRightsTests.Fixture()
        let file = backupPath()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let terminal = try SessionTerminal()
        terminal.answer([OwnerRightsTests.password])
        let script =
            "\"$SECURITY\" backup-keychain -p 'backup pw' \(file); echo exit=$?; "
            + "\"$SECURITY\" -G TEAM.a delete-generic-password -s shared -a acct >/dev/null; echo exit=$?; "
            + "\"$SECURITY\" restore-keychain -p 'backup pw' \(file); echo exit=$?"
        let run = try terminal.runSession(script, environment: fixture.environment)
        #expect(run.outputText.components(separatedBy: "exit=0").count == 4, "\(run.outputText) \(run.errorText)")
        // The command wrote the file, 0600, as the owner would have in process.
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((attributes[.size] as? Int ?? 0) > 0)
        #expect(try fixture.apps.run(fixture.apps.appA, "get", "acct")["data"] == "secret of A", "restored")
        #expect(!fixture.daemon.log.contains("backup pw"))
    }

    @Test func anAppCannotMakeOrRestoreABackup() throws {
        let fixture = try OwnerRightsTests.Fixture()
        let file = backupPath()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let made = try fixture.security(["--app", "backup-keychain", "-p", "backup pw", file])
        #expect(made.status == 30, "errSecMissingEntitlement: \(made.errorText)")
        #expect(made.errorText.contains("only the keychain's owner"), "\(made.errorText)")
        #expect(!FileManager.default.fileExists(atPath: file), "no file for a refused backup")

        // A backup file made elsewhere is read by the command, and the daemon refuses to restore it for an app.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("kd-backup-home-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let keychain = try Keychain(
            configuration: KeychainConfiguration(
                home: home, identity: CallerIdentity(applicationIdentifier: nil, accessGroups: ["TEAM.a"])))
        defer { keychain.close() }
        _ = try keychain.backup(to: URL(fileURLWithPath: file), password: Secret(Array("backup pw".utf8)))
        let restored = try fixture.security(["--app", "restore-keychain", "-p", "backup pw", file])
        #expect(restored.status == 30, "\(restored.errorText)")
    }

    /// A client that names a path itself (as an embedded keychain's request does) gets nothing done with the
    /// daemon's rights: no file is written where it points, none is read from there.
    @Test func aRequestNamingAPathIsRefusedAndTheDaemonOpensNoFile() throws {
        let fixture = try OwnerRightsTests.Fixture()
        let target = backupPath()
        defer { try? FileManager.default.removeItem(atPath: target) }
        let hostile = try fixture.daemon.connect()
        #expect(try hostile.request(.ping).kind == .pong)
        func status(of request: KeychainRequest) throws -> Int32? {
            let answer = try hostile.request(.request, payload: try RequestCodec.encode(request, context: nil))
            do {
                _ = try ResponseCodec.decode(answer.payload)
                return nil
            } catch let error as KeychainError {
                return error.status
            }
        }
        #expect(try status(of: .backup(path: target, password: Secret(Array("pw".utf8)))) == -4)
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try status(of: .restore(path: "/etc/passwd", password: Secret(Array("pw".utf8)))) == -4)
        // And the bytes' own requests, without owner rights, are the owner's only.
        #expect(try status(of: .backupArchive(password: Secret(Array("pw".utf8)))) == -34018)
        #expect(try status(of: .restoreArchive([1, 2, 3], password: Secret(Array("pw".utf8)))) == -34018)
    }

    @Test func aBackupOverAnExistingFileOrFromAMissingOneFailsInTheClient() throws {
        let fixture = try OwnerRightsTests.Fixture()
        let file = backupPath()
        FileManager.default.createFile(atPath: file, contents: Data("mine".utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let over = try fixture.security(["--app", "backup-keychain", "-p", "backup pw", file])
        #expect(over.status != 0 && over.errorText.contains("already exists"), "\(over.errorText)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "mine")
        let missing = try fixture.security(["--app", "restore-keychain", "-p", "backup pw", file + ".none"])
        #expect(missing.errorText.contains("no backup file"), "\(missing.errorText)")
    }
}
