import Foundation

// keychaind's benchmark (docs/benchmarks.md, scripts/daemon-benchmark.sh). Without arguments it is the driver:
// it starts keychaind (built beside it) in a temporary directory and its own copies as client processes, and
// prints a table. `client …` is one of those client processes (ClientCommand).

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "client" {
    exit(ClientCommand.run(Array(arguments.dropFirst())))
}
do {
    try BenchmarkDriver(settings: .fromEnvironment()).run()
} catch {
    FileHandle.standardError.write(Data("keychaind-benchmark: \(error)\n".utf8))
    exit(1)
}
