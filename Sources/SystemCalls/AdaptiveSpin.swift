/// How long a reader that expects an answer soon polls its socket before it sleeps on it, learnt from the waits
/// before: like an adaptive mutex, it polls only while the answer usually comes within the poll.
///
/// Every wait is timed, polled or slept (two clock reads, no system call), into a moving average. While that
/// average is under ``longestNanoseconds`` the next wait polls for one and a half times the average, then sleeps
/// as a plain blocking receive does. An idle spell counts as no more than four limits, so a burst after it polls
/// again within a few requests.
///
/// Polling pays only while a core would otherwise be idle. Each poll yields the processor between two looks; a
/// yield that comes back late means another thread ran on this core: the poll stops and the reader sleeps. One late
/// yield is usually a passing interruption (a timer, the host taking the virtual processor back for a moment), so
/// only that wait sleeps; a second one before a poll has ended well means other threads keep wanting this core (the
/// machine is loaded, or the peer shares the core), and the next few waits sleep at once (``contended()``).
package struct AdaptiveSpin: Sendable {
    /// The longest poll: beyond it, sleeping and being woken costs less than polling.
    package static let longestNanoseconds: UInt64 = 150_000

    /// A yield longer than this gave the core to another thread.
    package static let longestUncontendedYieldNanoseconds: UInt64 = 10_000

    /// The moving average of the waits, in nanoseconds (each wait counted up to four limits).
    package private(set) var averageWaitNanoseconds: UInt64
    private let enabled: Bool
    /// A yield came back late since the last poll that ended with an answer.
    private var yieldedLateRecently = false

    /// - Parameter averageWaitNanoseconds: the wait expected before any was timed.
    package init(averageWaitNanoseconds: UInt64 = AdaptiveSpin.longestNanoseconds / 2) {
        self.averageWaitNanoseconds = averageWaitNanoseconds
        enabled = true
    }

    private init(disabled: ()) {
        averageWaitNanoseconds = .max
        enabled = false
    }

    /// A spin that never polls: for readers that expect nothing soon.
    package static var never: AdaptiveSpin { AdaptiveSpin(disabled: ()) }

    /// The next wait's poll, in nanoseconds; 0 to sleep at once.
    package var budgetNanoseconds: UInt64 {
        guard enabled, averageWaitNanoseconds <= Self.longestNanoseconds else { return 0 }
        return min(Self.longestNanoseconds, averageWaitNanoseconds + averageWaitNanoseconds / 2)
    }

    /// Another thread wanted the core while this one polled: the next waits sleep at once, until a few quick
    /// answers bring the average under the limit again.
    package mutating func contended() {
        guard enabled else { return }
        averageWaitNanoseconds = 4 * Self.longestNanoseconds
    }

    /// A yield of this poll came back late (``longestUncontendedYieldNanoseconds``): the wait sleeps; if one did
    /// already since a poll last ended with an answer, the next waits sleep at once too (``contended()``).
    package mutating func yieldedLate() {
        guard enabled else { return }
        if yieldedLateRecently {
            yieldedLateRecently = false
            contended()
        } else {
            yieldedLateRecently = true
        }
    }

    /// Counts a wait that ended after `waited` nanoseconds; `polled` when the answer came while polling.
    package mutating func waited(nanoseconds waited: UInt64, polled: Bool = false) {
        guard enabled else { return }
        if polled { yieldedLateRecently = false }
        let counted = min(waited, 4 * Self.longestNanoseconds)
        if counted >= averageWaitNanoseconds {
            averageWaitNanoseconds += (counted - averageWaitNanoseconds) / 4
        } else {
            averageWaitNanoseconds -= (averageWaitNanoseconds - counted) / 4
        }
    }
}
