import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

/// `KEYCHAIN_ENTITLEMENTS` is the process's identity, as a code signature's entitlements are on macOS: `-G` and
/// `--entitlements` can narrow it, never leave it, whichever way the identity was given.
@Suite struct IdentityConfinementTests {
    /// A temporary entitlements file granting `groups` (the first also named as the application identifier).
    private final class EntitlementsFile {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "confine-\(UUID().uuidString).entitlements")

        init(_ groups: [String]) throws {
            let items = groups.map { "<string>\($0)</string>" }.joined()
            try Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict>
                <key>keychain-access-groups</key><array>\(items)</array>
                </dict></plist>
                """.utf8
            ).write(to: url)
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Runs a command as the `security` process would with `KEYCHAIN_ENTITLEMENTS=entitlements` (or unset).
    private func run(_ harness: CommandHarness, entitlements: String?, _ arguments: [String]) -> CommandHarness.Run {
        var variables = ["KEYCHAIN_HOME": harness.home.path, "KEYCHAIN_AUTHENTICATION": "simulated"]
        variables["KEYCHAIN_ENTITLEMENTS"] = entitlements
        let output = CapturedOutput()
        let errors = CapturedOutput()
        let runner = SecurityCommandRunner(
            source: .environment(EnvironmentVariables(variables)), output: output, errors: errors,
            passwords: FixedPasswordReader(password: nil))
        let code = runner.run(arguments: arguments)
        return CommandHarness.Run(exitCode: code, output: output.text, errors: errors.text)
    }

    private static let missingEntitlement = ExitCode.forStatus(SecurityStatus.missingEntitlement)

    @Test func accessGroupCannotLeaveTheVariablesIdentity() throws {
        let harness = CommandHarness()
        let confined = try EntitlementsFile(["TEAM9.shared", "TEAM9.second"])
        _ = run(harness, entitlements: nil, ["-G", "TEAM2.other", "add-generic-password", "-s", "theirs", "-w", "x"])
        _ = run(harness, entitlements: confined.url.path, ["add-generic-password", "-s", "mine", "-w", "y"])

        let escape = run(harness, entitlements: confined.url.path, ["-G", "TEAM2.other", "find-generic-password"])
        #expect(escape.exitCode == Self.missingEntitlement)
        #expect(!escape.output.contains("theirs"))
        #expect(escape.errors.contains("TEAM2.other"))
        let dump = run(harness, entitlements: confined.url.path, ["-G", "TEAM2.other", "dump-keychain"])
        #expect(dump.exitCode == Self.missingEntitlement)
        #expect(!dump.output.contains("theirs"))

        // Narrowing to a group the variable grants works, as with --entitlements.
        let narrowed = run(
            harness, entitlements: confined.url.path, ["-G", "TEAM9.shared", "find-generic-password", "-s", "mine"])
        #expect(narrowed.exitCode == 0)
        let elsewhere = run(
            harness, entitlements: confined.url.path, ["-G", "TEAM9.second", "find-generic-password", "-s", "mine"])
        #expect(elsewhere.exitCode == 44)
    }

    @Test func entitlementsOptionCanOnlyNarrowTheVariable() throws {
        let harness = CommandHarness()
        let confined = try EntitlementsFile(["TEAM9.shared", "TEAM9.second"])
        let wider = try EntitlementsFile(["TEAM2.other"])
        let narrower = try EntitlementsFile(["TEAM9.second"])
        _ = run(harness, entitlements: nil, ["-G", "TEAM2.other", "add-generic-password", "-s", "theirs", "-w", "x"])

        let escape = run(
            harness, entitlements: confined.url.path, ["--entitlements", wider.url.path, "find-generic-password"])
        #expect(escape.exitCode == Self.missingEntitlement)
        #expect(!escape.output.contains("theirs"))
        #expect(escape.errors.contains("KEYCHAIN_ENTITLEMENTS"))

        let add = run(
            harness, entitlements: confined.url.path,
            ["--entitlements", narrower.url.path, "add-generic-password", "-s", "narrow", "-w", "z"])
        #expect(add.exitCode == 0)
        let find = run(harness, entitlements: nil, ["-G", "TEAM9.second", "find-generic-password", "-s", "narrow"])
        #expect(find.output.contains("\"agrp\"<blob>=\"TEAM9.second\""))
    }

    @Test func anUnreadableVariableFailsClosedWhateverTheOptions() {
        let harness = CommandHarness()
        _ = run(harness, entitlements: nil, ["-G", "TEAM2.other", "add-generic-password", "-s", "theirs", "-w", "x"])
        let missing = "/nonexistent/confine.entitlements"
        for arguments in [
            ["find-generic-password"], ["-G", "TEAM2.other", "find-generic-password"],
        ] {
            let run = run(harness, entitlements: missing, arguments)
            #expect(run.exitCode == Self.missingEntitlement, "\(arguments)")
            #expect(!run.output.contains("theirs"), "\(arguments)")
        }
    }

    /// A backup holds every group's items and a restore writes into every group: neither fits a confined identity.
    @Test func backupAndRestoreNeedAnUnconfinedCommand() throws {
        let harness = CommandHarness()
        let confined = try EntitlementsFile(["TEAM9.shared"])
        _ = run(harness, entitlements: nil, ["-G", "TEAM2.other", "add-generic-password", "-s", "theirs", "-w", "x"])
        let file = harness.home.deletingLastPathComponent().appendingPathComponent("confined-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let backup = run(harness, entitlements: confined.url.path, ["backup-keychain", "-p", "pw", file.path])
        #expect(backup.exitCode == Self.missingEntitlement)
        #expect(backup.errors.contains("KEYCHAIN_ENTITLEMENTS"))
        #expect(!FileManager.default.fileExists(atPath: file.path))

        #expect(run(harness, entitlements: nil, ["backup-keychain", "-p", "pw", file.path]).exitCode == 0)
        let restore = run(harness, entitlements: confined.url.path, ["restore-keychain", "-p", "pw", file.path])
        #expect(restore.exitCode == Self.missingEntitlement)
    }

    @Test func withoutTheVariableAccessGroupAloneStillActsAsThatGroup() {
        let harness = CommandHarness()
        let add = run(harness, entitlements: nil, ["-G", "TEAM2.other", "add-generic-password", "-s", "t", "-w", "x"])
        #expect(add.exitCode == 0)
        let find = run(harness, entitlements: nil, ["-G", "TEAM2.other", "find-generic-password", "-s", "t"])
        #expect(find.exitCode == 0)
    }
}
