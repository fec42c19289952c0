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

    private static var rootWithNobodyAndSetpriv: Bool {
        getuid() == 0 && getpwnam("nobody") != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    @Test(.enabled(if: rootWithNobodyAndSetpriv, "needs root, the nobody account and setpriv"))
    func aDaemonStartedAsAnotherUserKeepsItsMemoryFromThatUsersProcesses() throws {
        let nobody = try #require(getpwnam("nobody")).pointee
        let directory = "/tmp/kd-" + UUID().uuidString.prefix(8).lowercased()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/apps.d", withIntermediateDirectories: true)
        chmod(directory, 0o755)
        chown(directory, nobody.pw_uid, nobody.pw_gid)
        let socket = directory + "/socket"
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        daemon.arguments = [
            "--reuid=\(nobody.pw_uid)", "--regid=\(nobody.pw_gid)", "--clear-groups", try DaemonProcess.executable(),
            "--foreground", "--state", directory + "/state", "--socket", socket, "--policy", directory + "/apps.d",
        ]
        daemon.environment = [:]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socket), daemon.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        try #require(FileManager.default.fileExists(atPath: socket), "keychaind did not start as nobody")
        // setpriv executes keychaind in its own process: the pid is the daemon's.
        #expect(try Self.ownerOfProcessEntry(daemon.processIdentifier) == 0)

        // Another process of nobody cannot read the daemon's environment (or anything else of it).
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        reader.arguments = [
            "--reuid=\(nobody.pw_uid)", "--regid=\(nobody.pw_gid)", "--clear-groups", "/bin/cat",
            "/proc/\(daemon.processIdentifier)/environ",
        ]
        reader.environment = [:]
        reader.standardOutput = FileHandle.nullDevice
        reader.standardError = FileHandle.nullDevice
        try reader.run()
        reader.waitUntilExit()
        #expect(reader.terminationStatus != 0)
    }
}
