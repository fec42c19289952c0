import Foundation

/// keychaind started by the driver in `directory` (state, socket, an empty policy, its log), stopped by `stop`.
final class DaemonUnderTest {
    let socketPath: String
    private let process = Process()

    init(executable: String, directory: String, arguments: [String] = []) throws {
        socketPath = directory + "/socket"
        let policy = directory + "/apps.d"
        try FileManager.default.createDirectory(atPath: policy, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: directory + "/daemon.log", contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--foreground", "--state", directory + "/state", "--socket", socketPath, "--policy", policy,
                "--policy-owner", String(getuid()),
            ] + arguments
        process.standardError = FileHandle(forWritingAtPath: directory + "/daemon.log")
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard process.isRunning, Date() < deadline else { throw BenchmarkError("keychaind did not start") }
            usleep(20_000)
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// The daemon's resident size (`VmRSS`), in kB.
    var residentKilobytes: Int {
        let status = ProcText.read("/proc/\(pid)/status")
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
