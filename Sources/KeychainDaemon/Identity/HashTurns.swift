import Foundation

/// Turns at reading an executable for its SHA-256, the one part of identifying a caller whose cost its maker sets
/// (an executable padded to 1 GiB with a sparse tail costs nothing to make and seconds of processor time to
/// read). At most ``slots`` files are read at once, for all users together, and at most ``sharePerUID`` of them
/// for one uid, so that one user's connections cannot take every processor, nor every turn: another user's
/// caller is identified as soon as a slot is free, while the first user's wait. Waiters are served in the order
/// they came, among those whose uid is under its share; one that waits past ``patience`` gives up.
package final class HashTurns: @unchecked Sendable {  // safe: every variable is read and written under `condition`
    /// Files read at once, for all users.
    package let slots: Int
    /// Files read at once for one uid: half the slots, at least one.
    package let sharePerUID: Int
    /// Seconds a caller waits for a turn before it is refused: the connection's idle limit.
    package let patience: Double

    private let condition = NSCondition()
    private var runningByUID: [UInt32: Int] = [:]
    private var running = 0
    private var waiting: [(ticket: UInt64, uid: UInt32)] = []
    private var nextTicket: UInt64 = 0

    /// What the daemon's `status` reports of the turns.
    package struct Counts: Sendable, Equatable {
        /// Files being read now.
        package let running: Int
        /// Callers waiting for a turn.
        package let waiting: Int
    }

    /// The processors this process may run on (at least 2, so that one uid's share always leaves a turn to the
    /// others).
    package static var defaultSlots: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    package init(slots: Int = HashTurns.defaultSlots, patience: Double = 300) {
        self.slots = max(1, slots)
        self.sharePerUID = max(1, self.slots / 2)
        self.patience = patience
    }

    /// Waits for a turn for `uid`, at most ``patience`` seconds; true once it has one, which ``end(uid:)`` gives
    /// back.
    package func begin(uid: UInt32) -> Bool {
        let deadline = Date(timeIntervalSinceNow: patience)
        condition.lock()
        defer { condition.unlock() }
        let ticket = nextTicket
        nextTicket += 1
        waiting.append((ticket, uid))
        while nextServed() != ticket {
            if !condition.wait(until: deadline), nextServed() != ticket {
                waiting.removeAll { $0.ticket == ticket }
                // Leaving may make a waiter behind this one the next served.
                condition.broadcast()
                return false
            }
        }
        waiting.removeAll { $0.ticket == ticket }
        running += 1
        runningByUID[uid, default: 0] += 1
        // A turn taken may leave another free for a waiter of another uid.
        condition.broadcast()
        return true
    }

    /// Gives back a turn ``begin(uid:)`` gave.
    package func end(uid: UInt32) {
        condition.lock()
        defer { condition.unlock() }
        running -= 1
        let left = (runningByUID[uid] ?? 1) - 1
        runningByUID[uid] = left > 0 ? left : nil
        condition.broadcast()
    }

    package var counts: Counts {
        condition.lock()
        defer { condition.unlock() }
        return Counts(running: running, waiting: waiting.count)
    }

    /// The ticket of the first waiter that may start now (a slot is free and its uid is under its share), or nil.
    private func nextServed() -> UInt64? {
        guard running < slots else { return nil }
        return waiting.first { (runningByUID[$0.uid] ?? 0) < sharePerUID }?.ticket
    }
}
