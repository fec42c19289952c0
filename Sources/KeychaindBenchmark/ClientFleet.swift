import Foundation

/// Client processes of the benchmark (this executable, `client …`), started together and waited for.
struct ClientFleet {
    let executable: String
    let environment: [String: String]

    /// The totals of a run: operations, failures, and the interval from the common start to the last end.
    struct Outcome {
        var ops = 0
        var failures = 0
        var seconds = 0.0
        var opsPerSecond: Double { seconds > 0 ? Double(ops) / seconds : 0 }
        var microsecondsPerOp: Double { ops > 0 ? seconds * 1e6 / Double(ops) : 0 }
    }

    /// Runs one client per element of `arguments` at once (each gets "client" first), and, while they run,
    /// calls `sample` every 50 ms.
    func run(_ arguments: [[String]], sample: () -> Void = {}) throws -> Outcome {
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
        while started.contains(where: { $0.0.isRunning }) {
            sample()
            usleep(50_000)
        }
        var outcome = Outcome()
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
            first = min(first, start)
            last = max(last, end)
        }
        outcome.seconds = Double(last - first) / 1e9
        return outcome
    }
}
