import Synchronization

/// How many of a process's threads may poll at once (``AdaptiveSpin``): half its processors, so that pollers never
/// take the cores their peers need to answer; none on a machine of one core.
package final class SpinGate: Sendable {
    /// The gate of this process.
    package static let process = SpinGate(limit: SystemCalls.onlineProcessors / 2)

    private let limit: Int
    private let polling = Atomic<Int>(0)

    package init(limit: Int) { self.limit = limit }

    /// Takes a turn to poll: false when enough threads poll already. A turn taken is given back with ``leave()``.
    package func enter() -> Bool {
        guard limit > 0 else { return false }
        let (_, now) = polling.add(1, ordering: .relaxed)
        guard now <= limit else {
            polling.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    package func leave() { polling.subtract(1, ordering: .relaxed) }
}
