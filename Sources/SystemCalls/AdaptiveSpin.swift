/// How long a reader that expects an answer soon polls its socket before it sleeps on it, learnt from the waits
/// before: like an adaptive mutex, it polls only while the answer usually comes within the poll.
///
/// Every wait is timed, polled or slept (two clock reads, no system call), into a moving average. While that
/// average is under ``longestNanoseconds`` the next wait polls for one and a half times the average, then sleeps
/// as a plain blocking receive does. An idle spell counts as no more than four limits, so a burst after it polls
/// again within a few requests.
///
/// Polling pays only while a core would otherwise be idle. Each poll yields the processor between two looks; a
/// yield that comes back late means other threads were waiting for this core (the machine is loaded, or the peer
/// shares the core): the poll stops, the reader sleeps, and the next few waits sleep at once (``contended()``).
package struct AdaptiveSpin: Sendable {
    /// The longest poll: beyond it, sleeping and being woken costs less than polling.
    package static let longestNanoseconds: UInt64 = 150_000

    /// A yield longer than this gave the core to another thread.
    package static let longestUncontendedYieldNanoseconds: UInt64 = 10_000

    /// The moving average of the waits, in nanoseconds (each wait counted up to four limits).
    package private(set) var averageWaitNanoseconds: UInt64
    private let enabled: Bool

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

    /// Counts a wait that ended after `waited` nanoseconds, polled or slept.
    package mutating func waited(nanoseconds waited: UInt64) {
        guard enabled else { return }
        let counted = min(waited, 4 * Self.longestNanoseconds)
        if counted >= averageWaitNanoseconds {
            averageWaitNanoseconds += (counted - averageWaitNanoseconds) / 4
        } else {
            averageWaitNanoseconds -= (averageWaitNanoseconds - counted) / 4
        }
    }
}
