import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A keychaind started by a root test as the `nobody` account directly (through `setpriv`, not `--user`), in a
/// directory of its own that nobody owns (a daemon a user runs as themselves), or in one like `/tmp`, root's and
/// writable by all. Stopped when released.
final class NobodyDaemon {
    /// Whether the machine lets a test start one: root, the nobody account and setpriv.
    static var isPossible: Bool {
        getuid() == 0 && getpwnam("nobody") != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    let directory: String
    let socketPath: String
    let uid: uid_t
    let gid: gid_t
    private let process: Process

    init(inASharedDirectory shared: Bool = false) throws {
        let nobody = try #require(getpwnam("nobody")).pointee
        uid = nobody.pw_uid
        gid = nobody.pw_gid
        directory = "/tmp/kd-" + UUID().uuidString.prefix(8).lowercased()
        socketPath = directory + "/socket"
        try FileManager.default.createDirectory(atPath: directory + "/apps.d", withIntermediateDirectories: true)
        if shared {
            chmod(directory, 0o1777)
        } else {
            chmod(directory, 0o755)
            chown(directory, uid, gid)
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", try DaemonProcess.executable(), "--foreground",
            "--state", directory + "/state", "--socket", socketPath, "--policy", directory + "/apps.d",
        ]
        process.environment = [:]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socketPath), process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard FileManager.default.fileExists(atPath: socketPath) else {
            stop()
            throw DaemonTestError("keychaind did not start as nobody")
        }
    }

    deinit { stop() }

    /// The daemon's pid: setpriv executes keychaind in its own process.
    var pid: Int32 { process.processIdentifier }

    /// Runs `arguments` as nobody, and returns its exit status.
    func runAsNobody(_ arguments: [String]) throws -> Int32 {
        let command = Process()
        command.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        command.arguments = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"] + arguments
        command.environment = [:]
        command.standardOutput = FileHandle.nullDevice
        command.standardError = FileHandle.nullDevice
        try command.run()
        command.waitUntilExit()
        return command.terminationStatus
    }

    private func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
