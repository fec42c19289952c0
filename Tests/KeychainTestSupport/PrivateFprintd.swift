import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private D-Bus daemon with the stand-in fprintd (`KeychainTestFprintd`) on it. The reader's state is a
/// file the stand-in reads at every call: enrolled fingers, and the results of coming verifications.
package final class PrivateFprintd {
    package let directory: URL
    package private(set) var address = ""
    private var bus: Process?
    private var fprintd: Process?
    private var state: (fingers: [String], hasDevice: Bool, results: [String]) = ([], true, [])

    package init(fingers: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fprintd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        state.fingers = fingers
        try writeState()
        let addressFile = directory.appendingPathComponent("address")
        _ = FileManager.default.createFile(atPath: addressFile.path, contents: nil)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = [
            "--session", "--address=unix:path=\(directory.path)/bus", "--nofork", "--nopidfile", "--print-address=1",
        ]
        daemon.standardOutput = try FileHandle(forWritingTo: addressFile)
        try daemon.run()
        bus = daemon
        for _ in 0..<250 where address.isEmpty {
            usleep(20_000)
            address =
                (try? String(contentsOf: addressFile, encoding: .utf8))?
                .split(separator: "\n").first.map(String.init) ?? ""
        }
        guard !address.isEmpty else { throw POSIXError(.ETIMEDOUT) }
        try start()
    }

    deinit { stop() }

    /// Starts the stand-in fprintd (again, after `stopService()`), and waits until it owns its name.
    package func start() throws {
        let service = Process()
        service.executableURL = try Self.executable()
        service.arguments = [address, directory.appendingPathComponent("state").path]
        let ready = Pipe()
        service.standardOutput = ready
        try service.run()
        fprintd = service
        guard ready.fileHandleForReading.availableData.starts(with: Array("ready".utf8)) else {
            throw POSIXError(.ESRCH)
        }
    }

    /// Stops the stand-in fprintd, as if the daemon were gone.
    package func stopService() {
        Self.kill(fprintd)
        fprintd = nil
    }

    package func stop() {
        stopService()
        Self.kill(bus)
        bus = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// SIGKILL: children of the test runner inherit its blocked signals, so SIGTERM would wait forever.
    private static func kill(_ process: Process?) {
        guard let process, process.isRunning else { return }
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Enrolls exactly `fingers`.
    package func enroll(_ fingers: [String]) throws {
        state = (fingers, state.hasDevice, Self.pending(directory))
        try writeState()
    }

    /// Plugs the reader in or out.
    package func setReaderPresent(_ present: Bool) throws {
        state = (state.fingers, present, Self.pending(directory))
        try writeState()
    }

    /// Queues what the coming verifications report, in order ("verify-match", "verify-no-match", ...).
    package func queue(_ results: String...) throws {
        state = (state.fingers, state.hasDevice, Self.pending(directory) + results)
        try writeState()
    }

    private func writeState() throws {
        var text = state.hasDevice ? "" : "device no\n"
        if !state.fingers.isEmpty { text += "fingers \(state.fingers.joined(separator: ","))\n" }
        text += state.results.map { $0 + "\n" }.joined()
        try text.write(to: directory.appendingPathComponent("state"), atomically: true, encoding: .utf8)
    }

    /// The results the stand-in has not consumed yet.
    private static func pending(_ directory: URL) -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("state"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("verify-") }
    }

    private static func executable() throws -> URL {
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let candidate = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent(
            "KeychainTestFprintd")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else { throw POSIXError(.ENOENT) }
        return candidate
    }
}
