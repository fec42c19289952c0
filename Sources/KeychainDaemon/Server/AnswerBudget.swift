import Synchronization

/// The bytes of answers keychaind holds while clients read them, per uid and in all. An answer larger than the
/// socket's buffers stays in the daemon's memory until its client has read it, and a client may read as slowly as
/// it likes: a uid's connections (64) each holding an answer of `--max-answer` (1 GiB) would take all the memory
/// there is.
package final class AnswerBudget: Sendable {
    /// Answers up to this size are not counted: the socket's buffers (about 200 KiB each way) take most of them
    /// at once, and 64 connections of them hold little.
    package static let smallestHeld = 256 * 1024

    private let perUID: Int
    private let total: Int
    private let held = Mutex<(total: Int, byUID: [UInt32: Int])>((0, [:]))

    /// A uid may hold one answer of the largest size at a time, and all uids together two.
    package convenience init(largestAnswer: Int) {
        let (twice, overflow) = largestAnswer.multipliedReportingOverflow(by: 2)
        self.init(perUID: largestAnswer, total: overflow ? .max : twice)
    }

    package init(perUID: Int, total: Int) {
        self.perUID = perUID
        self.total = total
    }

    /// Takes `bytes` for an answer to a client of `uid`; false when that would hold more than the uid's share or
    /// the daemon's whole budget.
    package func reserve(_ bytes: Int, for uid: UInt32) -> Bool {
        held.withLock { held in
            let mine = held.byUID[uid] ?? 0
            guard bytes >= 0, bytes <= perUID - mine, bytes <= total - held.total else { return false }
            held.byUID[uid] = mine + bytes
            held.total += bytes
            return true
        }
    }

    /// Gives back what ``reserve(_:for:)`` took, once the answer is sent or its client gone.
    package func release(_ bytes: Int, for uid: UInt32) {
        held.withLock { held in
            let left = (held.byUID[uid] ?? 0) - bytes
            held.byUID[uid] = left > 0 ? left : nil
            held.total -= bytes
        }
    }
}
