import Foundation

/// `keychain-benchmarks floor COUNT`: only the floor's durable adds (COUNT of them, in a fresh store under
/// `TMPDIR`), printed as one `floor-adds-per-second=N` line, for benchmarks that compare against the floor on the
/// same disk (scripts/daemon-benchmark.sh).
enum FloorOnly {
    static func runIfAsked() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.first == "floor" else { return }
        let count = arguments.count > 1 ? Int(arguments[1]) ?? 300 : 300
        let directory = scratchDirectory("floor-only")
        let secret = Array("correct horse battery staple 123".utf8)
        let measurement: Measurement
        do {
            let store = FloorStore(directory: directory)
            measurement = Measurement.run("floor", count: count) {
                store.add(primaryKey: Array("svc\u{0}acct\($0)".utf8), secret: secret)
            }
        }
        try? FileManager.default.removeItem(at: directory)
        print(String(format: "floor-adds-per-second=%.1f", measurement.opsPerSecond))
        exit(0)
    }
}
