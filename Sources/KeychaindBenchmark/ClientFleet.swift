import Foundation

/// Client processes of the benchmark (this executable, `client …`), started together and waited for.
struct ClientFleet {
    let executable: String
    let environment: [String: String]

    /// The totals of a run: operations, failures, the interval from the common start to the last end, and the CPU
    /// time the clients (and the daemon, when one was named) spent in that interval.
    struct Outcome {
        var ops = 0
        var failures = 0
        var seconds = 0.0
        var clientCPUSeconds = 0.0
        var daemonCPUSeconds: Double?
        var opsPerSecond: Double { seconds > 0 ? Double(ops) / seconds : 0 }
        var microsecondsPerOp: Double { ops > 0 ? seconds * 1e6 / Double(ops) : 0 }
        var clientCPUMicrosecondsPerOp: Double { ops > 0 ? clientCPUSeconds * 1e6 / Double(ops) : 0 }
        var daemonCPUMicrosecondsPerOp: Double? { daemonCPUSeconds.map { ops > 0 ? $0 * 1e6 / Double(ops) : 0 } }

        /// Adds another run's totals, as if its operations had followed this run's.
        mutating func add(_ other: Outcome) {
            ops += other.ops
            failures += other.failures
            seconds += other.seconds
            clientCPUSeconds += other.clientCPUSeconds
            if let theirs = other.daemonCPUSeconds { daemonCPUSeconds = (daemonCPUSeconds ?? 0) + theirs }
        }
    }

    /// Runs one client per element of `arguments` at once (each gets "client" first), and, while they run,
    /// calls `sample` every 50 ms. With `daemon`, its CPU time is read at `start` (the clients' common start
    /// instant, after they connected) and once they have all ended.
    func run(
        _ arguments: [[String]], start: UInt64? = nil, daemon: DaemonUnderTest? = nil, sample: () -> Void = {}
    ) throws -> Outcome {
        let started = try arguments.map { clientArguments -> (Process, Pipe) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["client"] + clientArguments
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }
        var daemonCPUAtStart: UInt64?
        if let daemon, let start {
            MonotonicClock.wait(until: start)
            daemonCPUAtStart = ProcessCPU.nanoseconds(of: daemon.pid)
        }
        while started.contains(where: { $0.0.isRunning }) {
            sample()
            usleep(50_000)
        }
        var outcome = Outcome()
        if let daemon, let before = daemonCPUAtStart, let after = ProcessCPU.nanoseconds(of: daemon.pid) {
            outcome.daemonCPUSeconds = Double(after - before) / 1e9
        }
        var (first, last) = (UInt64.max, UInt64(0))
        for (process, output) in started {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            var fields: [String: UInt64] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = UInt64(parts[1]) }
            }
            guard let start = fields["start"], let end = fields["end"] else {
                throw BenchmarkError("a client failed (exit \(process.terminationStatus)): \(text)")
            }
            outcome.ops += Int(fields["ops"] ?? 0)
            outcome.failures += Int(fields["failures"] ?? 0)
            outcome.clientCPUSeconds += Double(fields["cpu"] ?? 0) / 1e9
            first = min(first, start)
            last = max(last, end)
        }
        outcome.seconds = Double(last - first) / 1e9
        return outcome
    }
}

extension ClientFleet {
    /// The two kinds of client of a run: through `daemon`, and in process over a keychain home in `work`. Neither
    /// inherits a preloaded library, for which keychaind refuses a caller.
    static func pair(executable: String, daemon: DaemonUnderTest, work: String) -> (
        viaDaemon: ClientFleet, inProcess: ClientFleet
    ) {
        var environment = ProcessInfo.processInfo.environment
        for name in ["LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT"] { environment[name] = nil }
        var embedded = environment
        embedded["KEYCHAIN_SOCKET"] = nil
        embedded["KEYCHAIN_HOME"] = work + "/in-process"
        environment["KEYCHAIN_SOCKET"] = daemon.socketPath
        environment["KEYCHAIN_HOME"] = "/nonexistent/in-process-must-not-be-used"
        return (
            ClientFleet(executable: executable, environment: environment),
            ClientFleet(executable: executable, environment: embedded)
        )
    }
}
