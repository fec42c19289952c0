import Foundation
import KeychainCore
import Synchronization

/// Lock and unlock with few and many items (the cost must not depend on the number of items: only class keys
/// are unwrapped or dropped), a passcode change (which renews the class keys and rewraps every item key, so it
/// grows with the items), and reads of class A items with a passcode set against the same reads without.
/// `keychain-benchmarks data-protection [large-item-count]` runs this part alone.
enum DataProtectionBenchmark {
    static func runIfAsked() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.first == "data-protection" else { return }
        let count = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
        do {
            try run(largeCount: max(10, count), lookups: 5_000) { index in
                NewItem(
                    itemClass: .genericPassword,
                    attributes: [.service: .string("svc"), .account: .string("acct\(index)")],
                    data: Array("correct horse battery staple 123".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("data-protection: \(error)\n".utf8))
            exit(1)
        }
        exit(0)
    }

    static func run(largeCount: Int, lookups: Int, makeItem: (Int) -> NewItem) throws {
        let passcode = Secret(Array("correct horse".utf8))
        for count in [10, largeCount] {
            let keychain = try Keychain(
                configuration: KeychainConfiguration(
                    home: scratchDirectory("protection-\(count)"),
                    identity: CallerIdentity(applicationIdentifier: "BENCH.app", accessGroups: ["BENCH.app"])))
            defer { keychain.simulateRestart() }
            var next = 0
            while next < count {
                let end = min(next + 5_000, count)
                try keychain.add(contentsOf: (next..<end).map(makeItem))
                next = end
            }
            let plainReads = try readRate(keychain, count: count, lookups: lookups)
            try keychain.setPasscode(passcode)
            try keychain.setGracePeriod(0)
            var lockTime = 0.0
            var unlockTime = 0.0
            let rounds = 5
            for _ in 0..<rounds {
                lockTime += try seconds { try keychain.lock() }
                unlockTime += try seconds { try keychain.unlock(passcode: passcode) }
            }
            let protectedReads = try readRate(keychain, count: count, lookups: lookups)
            let kdf = try keychain.info().kdfMilliseconds ?? 0
            let changed = Secret(Array("battery staple".utf8))
            let residentBefore = ResidentSize.resetPeak()
            let beside = WriterBeside(keychain)
            let changeTime = try seconds { try keychain.setPasscode(changed, current: passcode) }
            let longestAdd = beside.stop()
            let peakGrowth = ResidentSize.peakKiB - residentBefore
            print(
                String(
                    format: "%7d items: lock %7.3f ms, unlock %7.1f ms (KDF %.1f ms), passcode change %7.1f ms; "
                        + "reads %6.0f/s without passcode, %6.0f/s unlocked with passcode",
                    count, lockTime / Double(rounds) * 1000, unlockTime / Double(rounds) * 1000, kdf,
                    changeTime * 1000, plainReads, protectedReads))
            print(
                String(
                    format: "%7d items: during the change, the longest add of another thread %.1f ms (%d adds), "
                        + "peak resident size %.1f MiB (%+.1f MiB)",
                    count, longestAdd.seconds * 1000, longestAdd.adds, Double(ResidentSize.peakKiB) / 1024,
                    Double(peakGrowth) / 1024))
            keychain.close()
        }
    }

    private static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private static func readRate(_ keychain: Keychain, count: Int, lookups: Int) throws -> Double {
        let measured = try Measurement.run("reads", count: lookups) { index in
            let found = try keychain.copyMatching(
                .genericPassword(service: "svc", account: "acct\((index * 7919) % count)", returns: .data))
            precondition(found.count == 1)
        }
        return measured.opsPerSecond
    }
}

/// Another thread adding items one by one while a passcode change runs: how long its longest add waited.
private final class WriterBeside: @unchecked Sendable {  // safe: the fields are read after the thread ended
    private let finished = Atomic<Bool>(false)
    private var thread: Thread?
    private var longest = 0.0
    private let adds = Atomic<Int>(0)

    init(_ keychain: Keychain) {
        let run = UUID().uuidString
        let thread = Thread { [self] in
            while !finished.load(ordering: .relaxed) {
                let start = DispatchTime.now().uptimeNanoseconds
                let item = NewItem(
                    itemClass: .genericPassword,
                    attributes: [
                        .service: .string("beside"),
                        .account: .string("beside-\(run)-\(adds.load(ordering: .relaxed))"),
                    ],
                    data: Array("beside".utf8))
                do { try keychain.add(item) } catch { return }
                longest = max(longest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                adds.add(1, ordering: .relaxed)
            }
        }
        self.thread = thread
        thread.start()
        // The change starts once the writer has made its first add.
        while adds.load(ordering: .relaxed) == 0 && thread.isFinished == false { usleep(1_000) }
    }

    func stop() -> (seconds: Double, adds: Int) {
        finished.store(true, ordering: .relaxed)
        while thread?.isFinished == false { usleep(1_000) }
        return (longest, adds.load(ordering: .relaxed))
    }
}

/// The process's resident size as Linux counts it (`/proc/self/status`).
enum ResidentSize {
    /// Resets the peak (`VmHWM`) to the current size, and returns that, in KiB.
    static func resetPeak() -> Int {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return field("VmRSS:")
    }

    /// The peak since the last reset, in KiB.
    static var peakKiB: Int { field("VmHWM:") }

    private static func field(_ name: String) -> Int {
        // Read to the end: /proc files report a size of 0.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/status")?.readDataToEndOfFile() else { return 0 }
        let status = String(decoding: data, as: UTF8.self)
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.dropFirst(name.count).split(whereSeparator: \.isWhitespace).first ?? "") ?? 0
        }
        return 0
    }
}
