#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension SystemCalls {
    /// What a non-blocking receive found.
    package enum Arrival: Equatable, Sendable {
        /// This many bytes were received (0: the peer closed the connection).
        case received(Int)
        /// Nothing has arrived yet.
        case nothingYet
    }

    /// Receives what has already arrived on a connected socket into `buffer`, without waiting.
    /// - Throws: ``SystemCallError`` named `recv`.
    package static func receiveIfArrived(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer,
        sender: UnsafeMutablePointer<Int32?>? = nil
    ) throws(SystemCallError) -> Arrival {
        do {
            let count = try receive(descriptor, into: buffer, flags: Int32(MSG_DONTWAIT), sender: sender)
            return .received(count)
        } catch {
            guard error.code == EAGAIN || error.code == EWOULDBLOCK else { throw error }
            return .nothingYet
        }
    }

    /// Receives into `buffer` as ``receive(_:into:)`` does, but first polls for up to `spin`'s budget: an answer
    /// that comes within microseconds then costs no sleep and no wake-up, which on a virtual machine cost more than
    /// the poll. Every wait is timed into `spin` (``AdaptiveSpin``).
    /// - Parameters:
    ///   - mayPoll: false when the caller knows its process has other work for the processors (other
    ///     requests being served): the wait then sleeps at once, and is still timed.
    ///   - sender: when given, receives the pid of the process that sent the bytes (see ``passCredentials(_:)``).
    package static func receive(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, spinning spin: inout AdaptiveSpin,
        mayPoll: Bool = true, sender: UnsafeMutablePointer<Int32?>? = nil
    ) throws(SystemCallError) -> Int {
        let budget = mayPoll ? spin.budgetNanoseconds : 0
        let start = monotonicNanoseconds()
        let decision = budget > 0 ? SpinGate.process.enter() : .enoughPollers
        if decision == .machineBusy { spin.contended() }
        if decision == .poll {
            defer { SpinGate.process.leave() }
            repeat {
                if case .received(let count) = try receiveIfArrived(descriptor, into: buffer, sender: sender) {
                    spin.waited(nanoseconds: monotonicNanoseconds() &- start, polled: true)
                    return count
                }
                // The peer may be waiting for this very core: let it (or anyone else waiting) run first. A yield
                // that took long means another thread wanted this core: polling would take it from them, so sleep.
                let beforeYield = monotonicNanoseconds()
                sched_yield()
                let now = monotonicNanoseconds()
                if now &- beforeYield > AdaptiveSpin.longestUncontendedYieldNanoseconds {
                    spin.yieldedLate()
                    break
                }
                if now &- start >= budget { break }
            } while true
        }
        let count = try receive(descriptor, into: buffer, sender: sender)
        spin.waited(nanoseconds: monotonicNanoseconds() &- start)
        return count
    }

    /// CLOCK_MONOTONIC in nanoseconds (the vDSO's: no system call).
    package static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// The processors online.
    package static var onlineProcessors: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
