import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whether a thread of this process may poll now (``AdaptiveSpin``): polling pays only on a core nobody else is
/// waiting for. At most half the processors' worth of this process's threads poll at once, and none while the
/// machine has more runnable threads than processors (the kernel's count in `/proc/loadavg`, read without
/// allocating: one `pread`).
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
        guard let runnable = runnableThreads(), runnable <= processors else {
            polling.subtract(1, ordering: .relaxed)
            return .machineBusy
        }
        return .poll
    }

    package func leave() { polling.subtract(1, ordering: .relaxed) }

    /// The machine's runnable threads, this one included: the numerator of `/proc/loadavg`'s fourth field
    /// ("0.52 0.58 0.59 3/467 12345").
    package func runnableThreads() -> Int? {
        guard loadAverage >= 0 else { return nil }
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
