import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// keychaind holds every user's class keys, device keys and, while it answers, secrets: it makes itself
/// non-dumpable, so that it leaves no core file and no process of the uid it runs as can trace it or read its
/// memory. The kernel shows this by giving the files under the daemon's `/proc/<pid>` to root instead of its uid.
@Suite struct DaemonMemoryPrivacyTests {
    /// The owner of `/proc/<pid>/status`: the process's uid while it is dumpable, root once it is not.
    static func ownerOfProcessEntry(_ pid: Int32) throws -> uid_t {
        var status = stat()
        guard stat("/proc/\(pid)/status", &status) == 0 else { throw DaemonTestError("no /proc/\(pid)/status") }
        return status.st_uid
    }

    @Test(.enabled(if: getuid() != 0, "as root, a process's /proc entries are root's either way"))
    func aDaemonStartedByAUserKeepsItsMemoryFromThatUsersProcesses() throws {
        let daemon = try DaemonProcess()
        #expect(try Self.ownerOfProcessEntry(daemon.pid) == 0)
        // This test process runs as the daemon's uid: its environment and memory are closed to it.
        #expect(open("/proc/\(daemon.pid)/environ", O_RDONLY) == -1)
        #expect(open("/proc/\(daemon.pid)/mem", O_RDONLY) == -1)
    }

    @Test(.enabled(if: NobodyDaemon.isPossible, "needs root, the nobody account and setpriv"))
    func aDaemonStartedAsAnotherUserKeepsItsMemoryFromThatUsersProcesses() throws {
        let daemon = try NobodyDaemon()
        #expect(try Self.ownerOfProcessEntry(daemon.pid) == 0)
        // Another process of nobody cannot read the daemon's environment (or anything else of it).
        #expect(try daemon.runAsNobody(["/bin/cat", "/proc/\(daemon.pid)/environ"]) != 0)
    }
}
