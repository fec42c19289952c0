import Foundation
import KeychainTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `security daemon status`, `security apps list` and `security apps show PATH`, run as the built `security`
/// program against a daemon of the test's own.
@Suite(.serialized) struct SecurityDaemonVerbsTests {
    /// Runs the built `security` with `arguments`; its exit status and standard output and error.
    static func security(_ arguments: [String], socket: String?) throws
        -> (status: Int32, output: String, errors: String)
    {
        let program = URL(fileURLWithPath: try DaemonProcess.executable()).deletingLastPathComponent()
            .appendingPathComponent("security").path
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = nil
        environment["KEYCHAIN_SOCKET"] = socket
        environment["KEYCHAIN_HOME"] = "/nonexistent/embedded-must-not-be-used"
        let run = try ChildProcess.run(URL(fileURLWithPath: program), arguments, environment: environment)
        return (run.status, run.outputText, run.errorText)
    }

    static func fields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.range(of: ": ") else { continue }
            fields[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
        }
        return fields
    }

    @Test func daemonStatusNamesVersionUptimeClientsQueueLockStateAndTheCaller() throws {
        let daemon = try DaemonProcess()
        let run = try Self.security(["daemon", "status"], socket: daemon.socketPath)
        #expect(run.status == 0, "\(run.errors)")
        let fields = Self.fields(run.output)
        #expect(fields["version"] == "0.1.0")
        #expect(fields["uptime"].flatMap(Double.init).map { $0 >= 0 } == true)
        #expect(fields["clients"].flatMap(Int.init).map { $0 >= 1 } == true)
        #expect(fields["queue-depth"].flatMap(Int.init) != nil)
        #expect(fields["lock-state"] == "no passcode")
        #expect(fields["caller-uid"] == String(getuid()))
        #expect(fields["caller-exe"]?.hasSuffix("/security") == true)
        #expect(fields["caller-access-groups"]?.hasPrefix("LOCAL.security.") == true)
    }

    /// Through keychaind, `show-keychain-info` names the daemon's enclave, not one of the command's machine
    /// configuration: here the daemon's software enclave, though the command's environment names no TPM and its
    /// process has no opt-in.
    @Test func showKeychainInfoNamesTheDaemonsSecureEnclave() throws {
        let setting = try EnclaveSettingFile()
        let daemon = try DaemonProcess(["--secure-enclave-setting", setting.file])
        let run = try Self.security(["show-keychain-info", "--json"], socket: daemon.socketPath)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("\"secureEnclave\":\"software\""), "\(run.output)")
        let plain = try DaemonProcess()
        let none = try Self.security(["show-keychain-info", "--json"], socket: plain.socketPath)
        #expect(none.output.contains("\"secureEnclave\":\"none\""), "\(none.output)")
    }

    @Test func appsListAndShowGiveThePolicysIdentity() throws {
        let directory = "/tmp/kd-verbs-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o755)
        let app = directory + "/tool"
        let other = directory + "/other"
        for path in [app, other] {
            try Data("#!/bin/sh\n# \(path)\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }
        let withoutDaemon = try Self.security(["apps", "show", app], socket: nil)
        #expect(withoutDaemon.status == 53)  // errSecNotAvailable's low byte: no daemon named
        let hash = try Self.shell("sha256sum \(app) | cut -d' ' -f1").trimmingCharacters(in: .whitespacesAndNewlines)
        let daemon = try DaemonProcess { policy in
            PolicyFixtures.write(
                [
                    "Executable": app, "SHA256": hash,
                    "Entitlements": PolicyFixtures.entitlements(["TEAM.tool"], application: "TEAM.tool.app"),
                ],
                named: "tool.plist", in: policy)
        }
        let list = try Self.security(["apps", "list"], socket: daemon.socketPath)
        #expect(list.status == 0)
        #expect(list.output.contains("exe=\(app) sha256=\(hash)"))
        #expect(list.output.contains("application-identifier=TEAM.tool.app access-groups=TEAM.tool"))
        let shown = Self.fields(try Self.security(["apps", "show", app], socket: daemon.socketPath).output)
        #expect(shown["decision"] == "allowed")
        #expect(shown["sha256"] == hash)
        #expect(shown["application-identifier"] == "TEAM.tool.app")
        #expect(shown["access-groups"] == "TEAM.tool TEAM.tool.app")  // Apple's order: groups, then the app id
        let unknown = Self.fields(try Self.security(["apps", "show", other], socket: daemon.socketPath).output)
        #expect(unknown["basis"] == "private group")
        #expect(unknown["access-groups"]?.hasPrefix("LOCAL.other.") == true)
        let missing = Self.fields(
            try Self.security(["apps", "show", directory + "/none"], socket: daemon.socketPath).output)
        #expect(missing["decision"] == "refused")
        #expect(try Self.security(["apps", "show"], socket: daemon.socketPath).status == 64)
    }

    /// A daemon that refuses the command is asked once: the refusal is the verb's answer, not a cue to connect
    /// again for the identity and then for the request (each refused connection also costs the daemon a hash of
    /// the executable).
    @Test func aRefusedCommandConnectsOnceAndSaysWhy() throws {
        let daemon = try DaemonProcess(["--unknown-callers", "refuse"])
        let run = try Self.security(["find-generic-password", "-s", "refused-once"], socket: daemon.socketPath)
        #expect(run.status != 0)
        #expect(run.errors.contains("keychaind refuses this process: no policy rule names it"), "\(run.errors)")
        let refusals = daemon.log.components(separatedBy: "is refused: no policy rule names it").count - 1
        #expect(refusals == 1, "\(daemon.log)")
    }

    static func shell(_ command: String) throws -> String {
        try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command]).outputText
    }
}
