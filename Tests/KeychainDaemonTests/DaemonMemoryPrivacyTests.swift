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
        #expect(try GroupCommitTests.statusFields(daemon)["dumpable"] == "no")
    }

    private static let suidDumpable = "/proc/sys/fs/suid_dumpable"

    private static var rootWithNobodyAndSuidDumpable: Bool {
        getuid() == 0 && getpwnam("nobody") != nil && access(suidDumpable, W_OK) == 0
    }

    /// A change of uid resets a process's dumpability to `fs.suid_dumpable`; at 2 that would allow core files
    /// (for root) of a daemon that left root, unless it makes itself non-dumpable again afterwards.
    @Test(.enabled(if: rootWithNobodyAndSuidDumpable, "needs root, the nobody account and a writable fs.suid_dumpable"))
    func leavingRootDoesNotMakeItDumpableWhereTheMachineAllowsCoreFilesOfChangedUsers() throws {
        let before = try String(contentsOfFile: Self.suidDumpable, encoding: .utf8)
        try "2\n".write(toFile: Self.suidDumpable, atomically: false, encoding: .utf8)
        defer { try? before.write(toFile: Self.suidDumpable, atomically: false, encoding: .utf8) }
        let daemon = try DaemonProcess(["--user", "nobody"])
        #expect(daemon.log.contains("running as user nobody"))
        #expect(try GroupCommitTests.statusFields(daemon)["dumpable"] == "no")
    }

    @Test(.enabled(if: NobodyDaemon.isPossible, "needs root, the nobody account and setpriv"))
    func aDaemonStartedAsAnotherUserKeepsItsMemoryFromThatUsersProcesses() throws {
        let daemon = try NobodyDaemon()
        #expect(try Self.ownerOfProcessEntry(daemon.pid) == 0)
        // Another process of nobody cannot read the daemon's environment (or anything else of it).
        #expect(try daemon.runAsNobody(["/bin/cat", "/proc/\(daemon.pid)/environ"]) != 0)
    }
}
