import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whether a thread of this process may poll now (``AdaptiveSpin``): polling pays only on a core nobody else is
/// waiting for. At most half the processors' worth of this process's threads poll at once, and none while the
/// machine has more runnable threads than processors (the kernel's count in `/proc/loadavg`, read without
/// allocating: one `pread`, at most once per ``readingLifetimeNanoseconds`` for the whole process, since the kernel
/// formats the whole file for every read and a wait would otherwise pay for it each time).
package final class SpinGate: Sendable {
    /// The gate of this process.
    package static let process = SpinGate(limit: SystemCalls.onlineProcessors / 2)

    /// What ``enter()`` decided.
    package enum Decision: Equatable, Sendable {
        /// Poll; give the turn back with ``leave()``.
        case poll
        /// Enough of this process's threads poll already.
        case enoughPollers
        /// Every processor has a thread to run: polling would take one from a thread that needs it.
        case machineBusy
    }

    private let limit: Int
    private let processors: Int
    private let polling = Atomic<Int>(0)
    /// The last reading of the runnable count, packed by ``pack(runnable:at:)``; 0 before the first.
    private let lastReading = Atomic<UInt64>(0)
    /// Reads of `/proc/loadavg` so far.
    private let reads = Atomic<Int>(0)
    /// How long a reading of the runnable count is used before it is read again.
    package static let readingLifetimeNanoseconds: UInt64 = 1_000_000
    /// `/proc/loadavg`, kept open; -1 when it cannot be read (the machine is then taken as busy).
    private let loadAverage: Int32

    package init(limit: Int, processors: Int = SystemCalls.onlineProcessors) {
        self.limit = limit
        self.processors = processors
        loadAverage = limit > 0 ? ((try? SystemCalls.open("/proc/loadavg", O_RDONLY)) ?? -1) : -1
    }

    deinit { if loadAverage >= 0 { SystemCalls.close(loadAverage) } }

    /// Takes a turn to poll, if polling pays now.
    package func enter() -> Decision {
        guard limit > 0 else { return .enoughPollers }
        let (_, now) = polling.add(1, ordering: .relaxed)
        guard now <= limit else {
            polling.subtract(1, ordering: .relaxed)
            return .enoughPollers
        }
        guard let runnable = recentRunnableThreads(), runnable <= processors else {
            polling.subtract(1, ordering: .relaxed)
            return .machineBusy
        }
        return .poll
    }

    package func leave() { polling.subtract(1, ordering: .relaxed) }

    /// Times this gate has read `/proc/loadavg`.
    package var loadAverageReads: Int { reads.load(ordering: .relaxed) }

    /// The runnable count as last read, read again when that reading is older than ``readingLifetimeNanoseconds``.
    /// Threads that find it stale at once may each read it: a race costs a read, never a wrong answer.
    package func recentRunnableThreads(now: UInt64 = SystemCalls.monotonicNanoseconds()) -> Int? {
        let reading = lastReading.load(ordering: .relaxed)
        if reading != 0, now &- Self.time(of: reading) < Self.readingLifetimeNanoseconds {
            return Self.runnable(of: reading)
        }
        guard let runnable = runnableThreads() else { return nil }
        lastReading.store(Self.pack(runnable: runnable, at: now), ordering: .relaxed)
        return runnable
    }

    /// A reading in one word: the time in units of 1,024 ns above, the count (at most 65,535) in the low 16 bits.
    private static func pack(runnable: Int, at time: UInt64) -> UInt64 {
        (max(time >> 10, 1) << 16) | UInt64(min(runnable, 0xFFFF))
    }

    private static func time(of reading: UInt64) -> UInt64 { (reading >> 16) << 10 }
    private static func runnable(of reading: UInt64) -> Int { Int(reading & 0xFFFF) }

    /// The machine's runnable threads, this one included: the numerator of `/proc/loadavg`'s fourth field
    /// ("0.52 0.58 0.59 3/467 12345").
    package func runnableThreads() -> Int? {
        guard loadAverage >= 0 else { return nil }
        reads.add(1, ordering: .relaxed)
        var text = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &text) { raw -> Int? in
            guard let count = try? SystemCalls.retrying("pread", { pread(loadAverage, raw.baseAddress, raw.count, 0) }),
                count > 0
            else { return nil }
            return Self.runnable(inLoadAverage: UnsafeRawBufferPointer(rebasing: raw[..<count]))
        }
    }

    /// The runnable count in the text of `/proc/loadavg`, or nil when it is not there.
    package static func runnable(inLoadAverage text: UnsafeRawBufferPointer) -> Int? {
        var spaces = 0
        var value = 0
        var digits = 0
        for byte in text {
            if spaces < 3 {
                if byte == UInt8(ascii: " ") { spaces += 1 }
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? value : nil
    }
}
