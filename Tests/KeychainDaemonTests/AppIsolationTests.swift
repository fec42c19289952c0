internal import CryptoKitOpenSSL
import Foundation
import KeychainCore
import KeychainStore
import SystemCalls
import Testing

@testable import KeychainDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// Apps told apart by keychaind through SecItem in separate processes: copies of the test client with other bytes,
/// each named by path and SHA-256 in a policy of its own.
@Suite(.serialized) struct AppIsolationTests {
    /// Two apps, A and B, in a private directory, with a daemon whose policy gives each its own group.
    final class Apps {
        let directory: String
        let appA: String
        let appB: String
        var daemon: DaemonProcess

        /// - Parameter hidden: whether the daemon runs in a mount namespace of its own where the apps' directory
        ///   is an empty file system, as `/home` and `/tmp` are for the daemon under the shipped unit.
        init(hiddenFromTheDaemon hidden: Bool = false) throws {
            directory = "/tmp/kd-apps-" + UUID().uuidString.prefix(8).lowercased()
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            chmod(directory, 0o755)
            appA = directory + "/app-a"
            appB = directory + "/app-b"
            let original = try Data(contentsOf: URL(fileURLWithPath: try Self.clientExecutable()))
            try Self.install(original + Data("app A".utf8), at: appA)
            try Self.install(original + Data("app B".utf8), at: appB)
            let (pathA, pathB) = (appA, appB)
            let digestA = hexadecimal(try Self.sha256(ofFile: appA))
            let digestB = hexadecimal(try Self.sha256(ofFile: appB))
            let hiding = [
                "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                "mount -t tmpfs hidden \"$0\" && exec \"$@\"", directory,
            ]
            // This machine's pid 1 may refuse to be looked at (a sandbox's init): the test process, in the
            // machine's mount namespace, stands in for it.
            let host = ["--host-root", "/proc/\(getpid())/root"]
            daemon = try DaemonProcess(hidden ? host : [], launcher: hidden ? hiding : []) { policy in
                PolicyFixtures.write(
                    [
                        "Executable": pathA, "SHA256": digestA,
                        "Entitlements": PolicyFixtures.entitlements(["TEAM.a"], application: "TEAM.a.app"),
                    ],
                    named: "a.plist", in: policy)
                PolicyFixtures.write(
                    [
                        "Executable": pathB, "SHA256": digestB,
                        "Entitlements": PolicyFixtures.entitlements(["TEAM.b"], application: "TEAM.b.app"),
                    ],
                    named: "b.plist", in: policy)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        static func install(_ bytes: Data, at path: String) throws {
            try? FileManager.default.removeItem(atPath: path)
            try bytes.write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }

        static func sha256(ofFile path: String) throws -> [UInt8] {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            var state = SHA256State()
            data.withUnsafeBytes { state.update($0) }
            return state.finalizedBytes()
        }

        static func clientExecutable() throws -> String {
            let daemon = try DaemonProcess.executable()
            return URL(fileURLWithPath: daemon).deletingLastPathComponent().appendingPathComponent(
                "KeychainDaemonTestClient"
            ).path
        }

        /// Runs `program` with `arguments` against the daemon; its output's `key=value` lines.
        func run(_ program: String, _ arguments: String..., environment: [String: String] = [:]) throws -> [String:
            String]
        {
            try runClient(program, arguments, socket: daemon.socketPath, environment: environment).fields
        }
    }

    @Test func noAppReadsUpdatesOrDeletesAnotherAppsItems() throws {
        let apps = try Apps()
        #expect(try apps.run(apps.appA, "add", "alpha", "secret-a")["status"] == "0")
        let reference = try #require(try apps.run(apps.appA, "ref", "alpha")["ref"])
        #expect(try apps.run(apps.appB, "get", "alpha")["status"] == "-25300")
        #expect(try apps.run(apps.appB, "update", "alpha", "stolen")["status"] == "-25300")
        #expect(try apps.run(apps.appB, "delete", "alpha")["status"] == "-25300")
        #expect(try apps.run(apps.appB, "get-ref", reference)["status"] == "-25300")
        #expect(try apps.run(apps.appB, "update-ref", reference, "stolen")["status"] == "-25300")
        #expect(try apps.run(apps.appB, "delete-ref", reference)["status"] == "-25300")
        // B's own item of the same name is B's alone.
        #expect(try apps.run(apps.appB, "add", "alpha", "secret-b")["status"] == "0")
        #expect(try apps.run(apps.appB, "get", "alpha")["data"] == "secret-b")
        #expect(try apps.run(apps.appA, "get", "alpha")["data"] == "secret-a")
    }

    @Test func anEntitlementsFileNamedByTheClientIsIgnored() throws {
        let apps = try Apps()
        #expect(try apps.run(apps.appA, "add", "alpha", "secret-a")["status"] == "0")
        let claimed = PolicyFixtures.write(
            PolicyFixtures.entitlements(["TEAM.a"], application: "TEAM.a.app"), named: "claims-a.plist",
            in: apps.directory)
        let spoofed = try apps.run(apps.appB, "get", "alpha", environment: ["KEYCHAIN_ENTITLEMENTS": claimed])
        #expect(spoofed["status"] == "-25300")
        #expect(spoofed["data"] == nil)
        #expect(
            try apps.run(apps.appB, "delete", "alpha", environment: ["KEYCHAIN_ENTITLEMENTS": claimed])["status"]
                == "-25300")
        #expect(try apps.run(apps.appA, "get", "alpha")["data"] == "secret-a")
    }

    @Test func anImpostorGetsOnlyItsPrivateGroup() throws {
        let apps = try Apps()
        #expect(try apps.run(apps.appA, "add", "alpha", "secret-a")["status"] == "0")
        // A copy of A's bytes elsewhere: another path, no rule.
        let elsewhere = apps.directory + "/copy/app-a"
        try FileManager.default.createDirectory(atPath: apps.directory + "/copy", withIntermediateDirectories: true)
        try Apps.install(try Data(contentsOf: URL(fileURLWithPath: apps.appA)), at: elsewhere)
        #expect(try apps.run(elsewhere, "get", "alpha")["status"] == "-25300")
        #expect(try apps.run(elsewhere, "add", "mine", "x")["status"] == "0")
        // Other bytes at A's path: the hash differs.
        let genuine = try Data(contentsOf: URL(fileURLWithPath: apps.appA))
        try Apps.install(genuine + Data("impostor".utf8), at: apps.appA)
        #expect(try apps.run(apps.appA, "get", "alpha")["status"] == "-25300")
        #expect(try apps.run(apps.appA, "delete", "alpha")["status"] == "-25300")
        try Apps.install(genuine, at: apps.appA)
        #expect(try apps.run(apps.appA, "get", "alpha")["data"] == "secret-a")
        #expect(try apps.run(apps.appA, "get", "mine")["status"] == "-25300")
    }

    /// App A, genuine bytes at its own path, after loading a library from its own directory (which others may
    /// write to: it is under /tmp), as a program built with `$ORIGIN` in its search path loads one planted beside
    /// it: A's rule is not applied, and it has only a private group of its own.
    @Test func theGenuineAppWithALibraryFromAnOpenDirectoryIsNotTheApp() throws {
        let apps = try Apps()
        #expect(try apps.run(apps.appA, "add", "alpha", "secret-a")["status"] == "0")
        let planted = apps.directory + "/libplanted.so"
        try Apps.install(try Data(contentsOf: URL(fileURLWithPath: try Self.harmlessLibrary())), at: planted)
        #expect(try apps.run(apps.appA, "with-library", planted, "get", "alpha")["status"] == "-25300")
        #expect(try apps.run(apps.appA, "with-library", planted, "delete", "alpha")["status"] == "-25300")
        // The same library loaded from root's own directory changes nothing.
        #expect(
            try apps.run(apps.appA, "with-library", try Self.harmlessLibrary(), "get", "alpha")["data"] == "secret-a")
        #expect(apps.daemon.log.contains("a.plist is not applied: it loaded \(planted), and /tmp is writable"))
    }

    /// App A after loading a library from a memory file, as the loader maps one inherited across `execve` and
    /// named in `LD_PRELOAD` (`/proc/self/fd/N`; the library can erase the variable before the daemon reads it):
    /// A's rule is not applied, though the library's bytes are root's own.
    @Test func theGenuineAppRunningCodeFromAMemoryFileIsNotTheApp() throws {
        let apps = try Apps()
        #expect(try apps.run(apps.appA, "add", "alpha", "secret-a")["status"] == "0")
        let library = try Self.harmlessLibrary()
        let loaded = try apps.run(apps.appA, "with-memfd-library", library, "get", "alpha")
        #expect(loaded["status"] == "-25300", "\(loaded)")
        #expect(loaded["data"] == nil)
        #expect(apps.daemon.waitForLog("a.plist is not applied: it runs code from /memfd:library (deleted)"))
    }

    /// A process that connects, then execs app A with the connection as its standard output (kept across the
    /// exec): A's output, fed by a child the process forked, would be served as A's requests. It is refused.
    @Test func aConnectionHandedToAnAppAcrossExecIsRefused() throws {
        let apps = try Apps()
        let launcher = try Apps.clientExecutable()
        // The daemon, stopped, accepts only once the exec is done: it then reads nothing of the launcher.
        kill(apps.daemon.pid, SIGSTOP)
        let started = try startClient(
            launcher, ["exec-on-connection", apps.appA, "wait", "3"], socket: apps.daemon.socketPath)
        sleep(1)
        kill(apps.daemon.pid, SIGCONT)
        _ = started.finish()
        #expect(apps.daemon.waitForLog("without close-on-exec"), "\(apps.daemon.log)")
        #expect(!apps.daemon.log.contains("is TEAM.a.app"))
        #expect(try apps.run(apps.appA, "add", "alpha", "secret-a")["status"] == "0")
    }

    static let canMakeNetworkNamespaces =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && (try? SystemCalls.run(["/usr/bin/unshare", "--net", "/bin/true"]))?.status == 0

    /// The same hand-off from a network namespace of its own, into which the kernel's socket diagnostics do not
    /// see: the daemon takes the sockets the process holds without close-on-exec and finds one connected to it.
    /// A client of the library there holds its connection with close-on-exec, and is served.
    @Test(.enabled(if: canMakeNetworkNamespaces, "needs root and unshare(1)"))
    func aConnectionHandedToAnAppAcrossExecInAnotherNetworkNamespaceIsRefused() throws {
        let apps = try Apps()
        let launcher = try Apps.clientExecutable()
        kill(apps.daemon.pid, SIGSTOP)
        let started = try startClient(
            "/usr/bin/unshare", ["--net", launcher, "exec-on-connection", apps.appA, "wait", "3"],
            socket: apps.daemon.socketPath)
        sleep(1)
        kill(apps.daemon.pid, SIGCONT)
        _ = started.finish()
        #expect(
            apps.daemon.waitForLog("holds a connection to keychaind in descriptor 1 without close-on-exec"),
            "\(apps.daemon.log)")
        #expect(!apps.daemon.log.contains("is TEAM.a.app"))
        let added = try runClient(
            "/usr/bin/unshare", ["--net", apps.appA, "add", "alpha", "secret-a"], socket: apps.daemon.socketPath
        ).fields
        #expect(added["status"] == "0", "\(added) \(apps.daemon.log)")
        #expect(try apps.run(apps.appA, "get", "alpha")["data"] == "secret-a")
    }

    /// glibc's `libutil.so.1`, an empty library kept for old programs, beside the C library this process runs.
    static func harmlessLibrary() throws -> String {
        // Read to its end: /proc files show a size of 0.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        let libc = try #require(ProcessFacts.codeFiles(maps: maps).first { $0.hasSuffix("/libc.so.6") })
        return URL(fileURLWithPath: libc).deletingLastPathComponent().appendingPathComponent("libutil.so.1").path
    }

    static let canMakeUserNamespaces =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && (try? SystemCalls.run(["/usr/bin/unshare", "--user", "--map-root-user", "/bin/true"]))?.status == 0

    /// App A's genuine bytes at its own path, run in a user namespace of its own (where it could have mounted
    /// its own `/etc/ld.so.preload`, or another program at that path): neither A nor a private group.
    @Test(.enabled(if: canMakeUserNamespaces, "needs unshare(1) and user namespaces"))
    func theGenuineAppInAUserNamespaceOfItsOwnIsRefused() throws {
        let apps = try Apps()
        #expect(try apps.run(apps.appA, "add", "alpha", "secret-a")["status"] == "0")
        let contained = try apps.run("/usr/bin/unshare", "--user", "--map-root-user", apps.appA, "get", "alpha")
        #expect(contained["status"] == "-34018", "\(contained)")
        #expect(contained["data"] == nil)
        #expect(apps.daemon.waitForLog("it runs in a user namespace of its own"))
        #expect(try apps.run(apps.appA, "get", "alpha")["data"] == "secret-a")
    }

    static let canHideFilesFromTheDaemon =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && (try? SystemCalls.run(["/usr/bin/unshare", "--mount", "/bin/true"]))?.status == 0

    /// Under the shipped unit (`ProtectHome=yes`, `PrivateTmp=yes`) the daemon does not see `/home` or `/tmp`,
    /// where users' programs are: it looks at them through pid 1's root, for private groups and for
    /// `security apps show`.
    @Test(.enabled(if: canHideFilesFromTheDaemon, "needs root and unshare(1)"))
    func aProgramInADirectoryHiddenFromTheDaemonHasItsPrivateGroupAndIsExplained() throws {
        let apps = try Apps(hiddenFromTheDaemon: true)
        let tool = apps.directory + "/tool"
        try Apps.install(try Data(contentsOf: URL(fileURLWithPath: apps.appA)) + Data("tool".utf8), at: tool)
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(apps.daemon.pid)/root\(tool)"), "not hidden")
        #expect(!apps.daemon.log.contains("cannot look through"))
        let added = try apps.run(tool, "add", "mine", "x")
        #expect(added["status"] == "0", "\(added) \(apps.daemon.log)")
        #expect(try apps.run(tool, "get", "mine")["data"] == "x")
        #expect(try apps.run(apps.appA, "get", "mine")["status"] == "-25300")
        let shown = try apps.run(apps.appA, "explain", apps.appB)
        #expect(shown["decision"] == "allowed" && shown["application-identifier"] == "TEAM.b.app", "\(shown)")
        let unnamed = try apps.run(apps.appA, "explain", tool)
        #expect(unnamed["basis"] == "private group", "\(unnamed)")
    }

    /// A child of `fork` holds its parent's connection: the client library connects anew in the child, and the
    /// parent's connection goes on (keychaind ends a connection on which another process sends).
    @Test func aForkedClientConnectsForItselfAndItsParentGoesOn() throws {
        let apps = try Apps()
        #expect(try apps.run(apps.appA, "add", "alpha", "secret-a")["status"] == "0")
        let forked = try apps.run(apps.appA, "fork-get", "alpha")
        #expect(forked["before"] == "0" && forked["child"] == "0" && forked["after"] == "0", "\(forked)")
    }

    @Test func everyAcknowledgedAddSurvivesAKilledDaemon() throws {
        let apps = try Apps()
        for round in 0..<3 {
            let storms = try (0..<4).map { client in
                try startClient(
                    client % 2 == 0 ? apps.appA : apps.appB, ["storm", "r\(round)c\(client)", "400"],
                    socket: apps.daemon.socketPath)
            }
            // Killed in the middle of the storm: once some writes are committed (a loaded machine can take
            // longer than any fixed pause to start the clients), then a little later each round.
            try Self.waitForCommittedWrites(apps.daemon, atLeast: 20)
            usleep(useconds_t(50_000 + round * 50_000))
            apps.daemon.kill()
            let outputs = storms.map { $0.finish() }
            #expect(try apps.daemon.integrityOfLeftDatabase() == "ok")
            apps.daemon = try DaemonProcess(directory: apps.daemon.directory)
            var acknowledged = 0
            for (client, output) in outputs.enumerated() {
                let app = client % 2 == 0 ? apps.appA : apps.appB
                let accounts = output.split(separator: "\n").compactMap { line in
                    line.hasPrefix("acked=") ? String(line.dropFirst("acked=".count)) : nil
                }
                acknowledged += accounts.count
                // Clients learn at once that the daemon is gone.
                if accounts.count < 400 { #expect(output.contains("status=-25291")) }
                let stored = try runClient(app, ["list"], socket: apps.daemon.socketPath).finish()
                    .split(separator: "\n").filter { $0.hasPrefix("account=") }.map { String($0.dropFirst(8)) }
                let missing = Set(accounts).subtracting(stored)
                #expect(missing.isEmpty, "acknowledged adds lost: \(missing.sorted().prefix(5))")
            }
            #expect(acknowledged > 0)
        }
    }
}

extension AppIsolationTests {
    /// Waits (up to a minute) until the daemon says it committed `count` writes.
    static func waitForCommittedWrites(_ daemon: DaemonProcess, atLeast count: Int) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let fields = try GroupCommitTests.statusFields(daemon)
            if let writes = fields["writes-committed"].flatMap({ Int($0) }), writes >= count { return }
            usleep(10_000)
        }
        Issue.record("the daemon committed fewer than \(count) writes in a minute")
    }
}

/// A client process started by a test.
struct StartedClient {
    let process: Process
    let output: Pipe

    /// Waits for it to exit; everything it printed.
    func finish() -> String {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    var fields: [String: String] {
        var fields: [String: String] = [:]
        for line in finish().split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }
}

func startClient(
    _ program: String, _ arguments: [String], socket: String, environment: [String: String] = [:]
) throws -> StartedClient {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    var inherited = ProcessInfo.processInfo.environment
    inherited["LD_PRELOAD"] = nil
    inherited["KEYCHAIN_SOCKET"] = socket
    inherited["KEYCHAIN_HOME"] = "/nonexistent/embedded-must-not-be-used"
    process.environment = inherited.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    return StartedClient(process: process, output: output)
}

func runClient(
    _ program: String, _ arguments: [String], socket: String, environment: [String: String] = [:]
) throws -> StartedClient {
    try startClient(program, arguments, socket: socket, environment: environment)
}
