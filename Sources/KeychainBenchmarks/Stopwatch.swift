import Foundation

/// Wall-clock timing of a loop, reported as operations per second and microseconds per operation.
struct Measurement {
    let name: String
    let operations: Int
    let seconds: Double

    var opsPerSecond: Double { Double(operations) / seconds }
    var microsecondsPerOp: Double { seconds * 1_000_000 / Double(operations) }

    /// Runs `body` `count` times (passing the iteration) and measures the whole loop.
    static func run(_ name: String, count: Int, _ body: (Int) throws -> Void) rethrows -> Measurement {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count { try body(index) }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Measurement(name: name, operations: count, seconds: elapsed)
    }
}

/// Several operations timed in turn, one call of each per round, so that all of them meet the same state of the
/// machine (durable writes depend on what the disk is doing).
enum Interleaved {
    /// `chunk` calls of each operation per round (fast operations: timing each call alone would cost more than
    /// the call), so that a machine busy with other work slows all of them alike and their ratios hold.
    static func run(count: Int, chunk: Int = 1, _ operations: [(name: String, body: (Int) throws -> Void)]) throws
        -> [Measurement]
    {
        var totals = [UInt64](repeating: 0, count: operations.count)
        var first = 0
        while first < count {
            let end = min(first + max(chunk, 1), count)
            for (slot, operation) in operations.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                for index in first..<end { try operation.body(index) }
                totals[slot] += DispatchTime.now().uptimeNanoseconds - start
            }
            first = end
        }
        return zip(operations, totals).map {
            Measurement(name: $0.name, operations: count, seconds: Double($1) / 1e9)
        }
    }
}

/// A fresh directory under the system's temporary directory.
func scratchDirectory(_ label: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "keychain-bench-\(label)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
