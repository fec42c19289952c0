import Foundation
import SystemCalls
import Testing

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
