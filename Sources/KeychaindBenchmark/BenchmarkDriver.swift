import Foundation

/// Runs the benchmark's four measures in one run, on one disk (the temporary directory), and prints the table.
struct BenchmarkDriver {
    let settings: BenchmarkSettings

    /// Instant the clients of a run start together: late enough for all of them to have started and connected.
    private func startInstant() -> UInt64 { MonotonicClock.now() + 3_000_000_000 }
    /// The same for a run of one client, which starts and connects sooner.
    private func soloStartInstant() -> UInt64 { MonotonicClock.now() + 1_000_000_000 }

    /// (b)'s rounds: each an in-process client and then a client through the daemon, `warmUp` untimed lookups
    /// before each one's timed ones. The daemon's CPU is measured only without a warm-up, whose lookups it would
    /// include.
    private func roundTrips(
        _ inProcess: ClientFleet, _ viaDaemon: ClientFleet, daemon: DaemonUnderTest, warmUp: Int
    ) throws -> RoundTrips {
        var rounds = RoundTrips()
        for round in 0..<settings.roundTripRounds {
            let lookups = String(
                settings.roundTrips / settings.roundTripRounds
                    + (round < settings.roundTrips % settings.roundTripRounds ? 1 : 0))
            let here = try inProcess.run([["lookups", "rt", "1", lookups, String(soloStartInstant()), String(warmUp)]])
            let remoteStart = soloStartInstant()
            let there = try viaDaemon.run(
                [["lookups", "rt", "1", lookups, String(remoteStart), String(warmUp)]], start: remoteStart,
                daemon: warmUp == 0 ? daemon : nil)
            rounds.add(local: here, remote: there)
        }
        return rounds
    }

    func run() throws {
        let directory = URL(fileURLWithPath: try selfExecutable()).deletingLastPathComponent().path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kd-bench-" + UUID().uuidString.prefix(8).lowercased()
        ).path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let daemon = try DaemonUnderTest(executable: directory + "/keychaind", directory: work)
        defer { daemon.stop() }

        let (viaDaemon, inProcess) = ClientFleet.pair(executable: try selfExecutable(), daemon: daemon, work: work)
        let clients = settings.clients
        let table = ResultTable()
        print("keychaind benchmark: \(MachineDescription.current(directory: work))")
        print("")

        // (a) Durable adds: one client, then all at once, between two runs of the floor on the same disk.
        let floorBefore = try floor(directory: directory, work: work)
        let single = try viaDaemon.run([["adds", "one", String(settings.addsPerClient), String(startInstant())]])
        let manyStart = startInstant()
        let many = try viaDaemon.run(
            (0..<clients).map { ["adds", "a\($0)", String(settings.addsPerClient), String(manyStart)] },
            start: manyStart, daemon: daemon)
        let floorAfter = try floor(directory: directory, work: work)
        let floorRate = max(floorBefore, floorAfter)
        table.row("floor: SQLite + OpenSSL, 1 writer, durable", String(format: "%.0f adds/s", floorRate))
        table.note(String(format: "(before %.0f, after %.0f; the higher is the floor)", floorBefore, floorAfter))
        table.row("keychaind, 1 client, durable adds", String(format: "%.0f adds/s", single.opsPerSecond))
        table.row(
            "(a) keychaind, \(clients) clients, durable adds", String(format: "%.0f adds/s", many.opsPerSecond),
            ratio: many.opsPerSecond / floorRate, target: "≥ 5× floor", met: many.opsPerSecond >= 5 * floorRate)
        table.cpu(many)
        if let daemonCPU = many.daemonCPUMicrosecondsPerOp {
            // What the processors allow at that cost, were they busy all the time with nothing else: the bound
            // that (a) meets when the disk's flush is fast.
            let processors = ProcessInfo.processInfo.activeProcessorCount
            let ceiling = Double(processors) * 1_000_000 / (many.clientCPUMicrosecondsPerOp + daemonCPU)
            table.note(
                String(
                    format: "at that CPU per add, %d processors give at most %.0f adds/s (%.2f× the floor)",
                    processors, ceiling, ceiling / floorRate))
        }
        table.failures(single.failures + many.failures)

        // (b) One lookup round trip through the daemon against SecItemCopyMatching in process, same item. The two
        // take turns, round by round, so that a busy moment of the machine weighs on both sides alike.
        _ = try inProcess.run([["adds", "rt", "1", String(startInstant())]])
        _ = try viaDaemon.run([["adds", "rt", "1", String(startInstant())]])
        let cold = try roundTrips(inProcess, viaDaemon, daemon: daemon, warmUp: 0)
        cold.report(
            to: table, inProcessName: "in-process SecItemCopyMatching (1 item)",
            throughDaemonName: "(b) same lookup through keychaind")
        if settings.roundTripWarmUp > 0 {
            // The same rounds, each process timed after a warm-up: how a client in steady use fares. On a virtual
            // machine the first lookups after an idle spell can run the client and the daemon's thread on one
            // processor (docs/benchmarks.md).
            let warm = try roundTrips(inProcess, viaDaemon, daemon: daemon, warmUp: settings.roundTripWarmUp)
            warm.report(
                to: table, inProcessName: "in-process, after \(settings.roundTripWarmUp) untimed",
                throughDaemonName: "(b) through keychaind, after \(settings.roundTripWarmUp) untimed")
        }
        for polling in [false, true] {
            let bare = try SocketRoundTrip.measure(
                executable: try selfExecutable(), count: settings.roundTrips, polling: polling)
            table.row(
                "    floor: bare socket round trip, " + (polling ? "polling" : "2 processes"),
                String(format: "%.1f µs", bare.microsecondsPerRoundTrip))
            table.note(
                String(
                    format: "CPU per round trip: this side %.1f µs; (b) at 2× leaves %.1f µs beyond the lookup",
                    bare.cpuMicrosecondsPerRoundTrip, cold.local.microsecondsPerOp))
        }

        // (c) Aggregate lookups from all clients, over the items of (a).
        let stored = clients * settings.addsPerClient + 1
        let lookups = try lookupStorm(viaDaemon, daemon: daemon) {}
        table.row(
            "(c) \(clients) clients, lookups (\(stored) items)", String(format: "%.0f lookups/s", lookups.opsPerSecond),
            target: "≥ 20k/s", met: lookups.opsPerSecond >= 20_000)
        table.cpu(lookups)
        table.failures(lookups.failures)

        // (d) Fill to the item count (or as far as the time allows), then look up with all clients connected.
        var items = stored
        if settings.items > items {
            let perClient = (settings.items - items + clients - 1) / clients
            let fillStart = startInstant()
            let deadline = String(fillStart + UInt64(settings.fillSeconds) * 1_000_000_000)
            let fill = try viaDaemon.run(
                (0..<clients).map { ["adds", "f\($0)", String(perClient), String(fillStart), deadline] })
            items += fill.ops
            table.row(
                "fill: \(clients) clients, durable adds", String(format: "%.0f adds/s", fill.opsPerSecond))
            table.note(String(format: "(%d adds in %.1f s)", fill.ops, fill.seconds))
            table.failures(fill.failures)
        }
        var peak = 0
        let large = try lookupStorm(viaDaemon, daemon: daemon) {
            peak = max(peak, daemon.residentKilobytes)
        }
        table.row(
            "(c) \(clients) clients, lookups (\(items) items)", String(format: "%.0f lookups/s", large.opsPerSecond),
            target: "≥ 20k/s", met: large.opsPerSecond >= 20_000)
        table.cpu(large)
        table.failures(large.failures)
        table.row(
            "(d) keychaind RSS, \(items) items, \(clients) clients",
            String(format: "%.1f MiB", Double(peak) / 1024), target: "reported")
        table.print()
    }

    /// Every client looks up the items it added in (a), at once.
    private func lookupStorm(
        _ fleet: ClientFleet, daemon: DaemonUnderTest, sample: () -> Void
    ) throws -> ClientFleet.Outcome {
        let start = startInstant()
        let accounts = String(settings.addsPerClient)
        return try fleet.run(
            (0..<settings.clients).map {
                ["lookups", "a\($0)", accounts, String(settings.lookupsPerClient), String(start)]
            }, start: start, daemon: daemon, sample: sample)
    }

    /// The floor's durable adds per second, from `keychain-benchmarks floor`, in `work` (the same disk).
    private func floor(directory: String, work: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: directory + "/keychain-benchmarks")
        process.arguments = ["floor", String(settings.floorOps)]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": work]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let prefix = "floor-adds-per-second="
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
            let rate = Double(line.dropFirst(prefix.count))
        else { throw BenchmarkError("keychain-benchmarks floor printed no figure: \(text)") }
        return rate
    }

    private func selfExecutable() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}
