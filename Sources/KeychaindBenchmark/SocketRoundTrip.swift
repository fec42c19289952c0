import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The floor under (b): a bare round trip over a Unix stream socket between two processes, a message of the size
/// of a lookup's request out and one of its answer back, with no work at either end. A lookup through keychaind
/// pays this on top of the lookup itself, whatever the daemon does; on a VM, waking a process on another core is
/// most of it.
enum SocketRoundTrip {
    static let messageSize = 200

    /// What the driver measured: wall time per round trip, and its own CPU per round trip.
    struct Outcome {
        let microsecondsPerRoundTrip: Double
        let cpuMicrosecondsPerRoundTrip: Double
    }

    /// Starts a copy of the benchmark (`client echo COUNT [poll]`) on one end of a socket pair and ping-pongs with
    /// it; with `polling`, both ends wait as keychaind and its clients do (``AdaptiveSpin``), else they sleep at once.
    static func measure(executable: String, count: Int, polling: Bool) throws -> Outcome {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
            throw BenchmarkError("socketpair failed (errno \(errno))")
        }
        defer { close(ends[0]) }
        let echo = Process()
        echo.executableURL = URL(fileURLWithPath: executable)
        let warmUp = 200
        echo.arguments = ["client", "echo", String(warmUp + count)] + (polling ? ["poll"] : [])
        echo.standardInput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        try echo.run()
        close(ends[1])
        var message = [UInt8](repeating: 0x5A, count: messageSize)
        var spin = polling ? AdaptiveSpin() : .never
        for _ in 0..<warmUp { try exchange(ends[0], &message, &spin) }
        let cpu = ProcessCPU.ownNanoseconds()
        let start = MonotonicClock.now()
        for _ in 0..<count { try exchange(ends[0], &message, &spin) }
        let wall = Double(MonotonicClock.now() - start) / 1000 / Double(count)
        let used = Double(ProcessCPU.ownNanoseconds() - cpu) / 1000 / Double(count)
        echo.waitUntilExit()
        return Outcome(microsecondsPerRoundTrip: wall, cpuMicrosecondsPerRoundTrip: used)
    }

    /// The echoing end: reads each whole message on standard input (the socket) and writes it back.
    static func echo(count: Int, polling: Bool) -> Int32 {
        var message = [UInt8](repeating: 0, count: messageSize)
        var spin = polling ? AdaptiveSpin() : .never
        for _ in 0..<count {
            guard (try? readWhole(0, &message, &spin)) != nil, (try? writeWhole(0, message)) != nil else { return 1 }
        }
        return 0
    }

    private static func exchange(_ descriptor: Int32, _ message: inout [UInt8], _ spin: inout AdaptiveSpin) throws {
        try writeWhole(descriptor, message)
        try readWhole(descriptor, &message, &spin)
    }

    private static func writeWhole(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        do {
            try SystemCalls.sendAll(descriptor, bytes)
        } catch {
            throw BenchmarkError("send failed: \(error)")
        }
    }

    private static func readWhole(_ descriptor: Int32, _ bytes: inout [UInt8], _ spin: inout AdaptiveSpin) throws {
        var received = 0
        while received < bytes.count {
            let count = bytes.withUnsafeMutableBytes { raw in
                Result { () throws(SystemCallError) in
                    try SystemCalls.receive(
                        descriptor, into: UnsafeMutableRawBufferPointer(rebasing: raw[received...]), spinning: &spin)
                }
            }
            guard case .success(let got) = count, got > 0 else { throw BenchmarkError("the echo ended early") }
            received += got
        }
    }
}
