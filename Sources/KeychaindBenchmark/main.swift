import Foundation

// keychaind's benchmark (docs/benchmarks.md, scripts/daemon-benchmark.sh). Without arguments it is the driver:
// it starts keychaind (built beside it) in a temporary directory and its own copies as client processes, and
// prints a table. `client …` is one of those client processes (ClientCommand). `round-trip COUNT` measures only
// the bare socket round trips, sleeping and polling; `enclave COUNT`, Secure Enclave signatures in process and
// through keychaind (EnclaveSignatures).

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "client" {
    exit(ClientCommand.run(Array(arguments.dropFirst())))
}
if arguments.first == "round-trip", arguments.count == 2, let count = Int(arguments[1]) {
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    for polling in [false, true] {
        let outcome = try SocketRoundTrip.measure(executable: executable, count: count, polling: polling)
        print(
            String(
                format: "bare socket round trip%@: %.1f µs, CPU this side %.1f µs", polling ? ", polling" : "",
                outcome.microsecondsPerRoundTrip, outcome.cpuMicrosecondsPerRoundTrip))
    }
    exit(0)
}
if arguments.first == "enclave", arguments.count == 2, let count = Int(arguments[1]) {
    do {
        try EnclaveSignatures.measure(
            count: count, executable: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("keychaind-benchmark: \(error)\n".utf8))
        exit(1)
    }
}
do {
    try BenchmarkDriver(settings: .fromEnvironment()).run()
} catch {
    FileHandle.standardError.write(Data("keychaind-benchmark: \(error)\n".utf8))
    exit(1)
}
