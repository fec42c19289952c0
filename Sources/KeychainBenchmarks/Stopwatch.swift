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

/// A fresh directory under the system's temporary directory.
func scratchDirectory(_ label: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-bench-\(label)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
