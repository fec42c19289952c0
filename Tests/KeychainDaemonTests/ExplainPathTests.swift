import Foundation
import KeychainWire
import SystemCalls
import Testing

@testable import KeychainDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// `security apps show PATH` looks the path up as its asker would: in the asker's own mounts, never in `/proc`
/// (whose links the daemon could read with its right to look into processes, and whose `self` is the daemon),
/// with a trailing slash naming a directory, and within a bound however the path is padded.
@Suite(.serialized) struct ExplainPathTests {
    @Test func procIsNotLookedIntoForTheAsker() throws {
        let apps = try AppIsolationTests.Apps()
        for path in ["/proc/self/exe", "/proc/\(apps.daemon.pid)/exe", "/proc/\(apps.daemon.pid)/cwd/state"] {
            let shown = try apps.run(apps.appA, "explain", path)
            #expect(shown["decision"] == "refused" && shown["exe"] == nil, "\(path): \(shown)")
        }
    }

    /// A path is text without NUL: a payload with a NUL, or bytes that are not UTF-8, is refused as such (the file
    /// system would read another path than the text), and the connection goes on.
    @Test func aPathWithANulOrBytesNotUTF8IsRefusedPrecisely() throws {
        let apps = try AppIsolationTests.Apps()
        let client = try apps.daemon.connect()
        let cases: [([UInt8], String)] = [
            (Array(apps.appB.utf8) + [0] + Array("junk".utf8), "holds a NUL byte"),
            (Array(apps.appB.utf8) + [0xFF, 0xFE], "is not UTF-8"),
        ]
        for (payload, words) in cases {
            let answer = try client.request(.explainExecutable, payload: payload)
            #expect(answer.kind == .error, "\(payload)")
            let reply = try ErrorReply.decode(answer.payload)
            #expect(reply.status == ErrorReply.param)
            #expect(reply.reason.contains(words), "\(reply.reason)")
        }
        #expect(try client.request(.explainExecutable, payload: Array(apps.appB.utf8)).kind == .executableIdentity)
    }

    @Test func aTrailingSlashNamesADirectoryAndDotsAreFollowed() throws {
        let apps = try AppIsolationTests.Apps()
        #expect(try apps.run(apps.appA, "explain", apps.appB + "/")["sha256"] == nil)
        let name = (apps.directory as NSString).lastPathComponent
        let winding = try apps.run(apps.appA, "explain", "/./tmp/../tmp/\(name)/./app-b")
        #expect(winding["exe"] == apps.appB && winding["sha256"]?.count == 64, "\(winding)")
    }

    @Test func aPathPaddedWithParentsIsRefusedAndTheDaemonGoesOn() throws {
        let apps = try AppIsolationTests.Apps()
        let padded = "/" + String(repeating: "../", count: 20_000) + String(apps.appB.dropFirst())
        #expect(try apps.run(apps.appA, "explain", padded)["sha256"] == nil)
        #expect(try apps.run(apps.appA, "explain", apps.appB)["sha256"]?.count == 64)
    }

    /// A walk holds one descriptor per directory level, so it stops at ``AskersPath/depthLimit`` levels: a
    /// program deeper than that is not explained, and the daemon goes on.
    @Test func aPathDeeperThanTheBoundIsRefusedAndTheDaemonGoesOn() throws {
        let apps = try AppIsolationTests.Apps()
        var deep = apps.directory
        for _ in 0..<(AskersPath.depthLimit + 10) { deep += "/d" }
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: apps.appB, toPath: deep + "/app-b")
        #expect(try apps.run(apps.appA, "explain", deep + "/app-b")["sha256"] == nil)
        #expect(try apps.run(apps.appA, "explain", apps.appB)["sha256"]?.count == 64)
    }

    /// Each connection holds two descriptors (its socket and its client's pidfd): the daemon raises its soft limit
    /// on open files to the hard one, which is often far above the usual 1,024.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") && hardLimitOnOpenFiles() >= 8192,
            "needs prlimit(1) and a hard limit on open files of at least 8,192"))
    func theDaemonRaisesItsLimitOnOpenFiles() throws {
        let daemon = try DaemonProcess(launcher: ["/usr/bin/prlimit", "--nofile=1024:8192", "--"])
        let limits = try String(contentsOfFile: "/proc/\(daemon.pid)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        #expect(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first == "8192", "\(line)")
    }

    /// The log quotes a caller's program path, which its user chose: a path with a line break in it does not
    /// start a line of its own in the log.
    @Test func aProgramPathCannotForgeALogLine() throws {
        let apps = try AppIsolationTests.Apps()
        let forged = "keychaind: owner rights granted to root by PAM service keychain"
        let program = apps.directory + "/app\n" + forged
        try FileManager.default.copyItem(atPath: apps.appA, toPath: program)
        #expect(try runClient(program, ["get", "nothing"], socket: apps.daemon.socketPath).fields["status"] != nil)
        let log = apps.daemon.log
        #expect(log.contains("app\\x0A" + forged), "\(log)")
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix(forged) })
    }

    /// At most eight walks at once, each holding up to 256 descriptors: a ninth is refused, not queued.
    @Test func onlyEightWalksRunAtOnce() {
        let walks = ConcurrencyLimit(8)
        #expect((0..<8).allSatisfy { _ in walks.begin() })
        #expect(!walks.begin())
        walks.end()
        #expect(walks.begin())
    }

    static func hardLimitOnOpenFiles() -> rlim_t {
        var limit = rlimit()
        return getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? limit.rlim_max : 0
    }

    static let canMakeARoot =
        AppIsolationTests.canHideFilesFromTheDaemon && FileManager.default.isExecutableFile(atPath: "/usr/sbin/chroot")

    /// A Flatpak app (here a root of its own with a `/.flatpak-info`, which a policy rule names) may be denied by its
    /// sandbox files that their permission bits show: it is told nothing of files.
    @Test(.enabled(if: canMakeARoot, "needs root, unshare(1) and chroot(8)"))
    func aSandboxedAskerIsToldNothing() throws {
        let daemon = try DaemonProcess { policy in
            PolicyFixtures.write(
                [
                    "FlatpakID": "org.example.Sandboxed",
                    "Entitlements": PolicyFixtures.entitlements(["TEAM.s"], application: "TEAM.s.app"),
                ],
                named: "sandboxed.plist", in: policy)
        }
        let client = try AppIsolationTests.Apps.clientExecutable()
        let root = "/tmp/kd-root-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // A root of its own: every top-level directory of the machine's bound in (the checkout, and so the client,
        // may be anywhere), its links copied, and the sandbox's file at its top.
        let makeRoot = """
            R="$0"; mount -t tmpfs sandbox "$R" || exit 1
            for p in /*; do
              d="${p#/}"
              if [ -L "$p" ]; then ln -s "$(readlink "$p")" "$R/$d"
              elif [ -d "$p" ]; then mkdir -p "$R/$d" && mount --rbind "$p" "$R/$d"; fi
            done
            printf '[Application]\nname=org.example.Sandboxed\n' > "$R/.flatpak-info"
            exec chroot "$R" "$@"
            """
        let run = try runClient(
            "/usr/bin/unshare",
            ["--mount", "--propagation", "private", "/bin/sh", "-c", makeRoot, root, client, "explain", client],
            socket: daemon.socketPath
        )
        let shown = run.fields
        #expect(run.process.terminationStatus == 0, "the client did not run in its root")
        #expect(shown["decision"] == "refused", "\(shown) \(daemon.log)")
        #expect(shown["reason"]?.contains("sandboxed") == true, "\(shown)")
        #expect(shown["sha256"] == nil)
        #expect(daemon.log.contains("is TEAM.s.app"), "the sandbox was not taken for the Flatpak app")
    }

    /// An asker whose mounts hide a file (a sandbox's, here a tmpfs over the apps' directory) is not told of it,
    /// though the machine has it.
    @Test(.enabled(if: AppIsolationTests.canHideFilesFromTheDaemon, "needs root and unshare(1)"))
    func aFileHiddenFromTheAskerIsNotExplained() throws {
        let apps = try AppIsolationTests.Apps()
        let client = try AppIsolationTests.Apps.clientExecutable()
        let hidden = try runClient(
            "/usr/bin/unshare",
            [
                "--mount", "--propagation", "private", "/bin/sh", "-c",
                "mount -t tmpfs hidden \"$0\" && exec \"$@\"", apps.directory, client, "explain", apps.appB,
            ], socket: apps.daemon.socketPath
        ).fields
        #expect(hidden["decision"] == "refused" && hidden["sha256"] == nil, "\(hidden)")
        #expect(try runClient(client, ["explain", apps.appB], socket: apps.daemon.socketPath).fields["sha256"] != nil)
    }
}
