import Foundation
import Synchronization

/// Commits writes from many threads together: one `BEGIN IMMEDIATE … COMMIT`, and so one fsync of the WAL
/// (`synchronous=FULL`), for every write waiting when the previous group finished.
///
/// Each write runs in a SAVEPOINT of its own: one that throws is rolled back alone, and only its caller sees the
/// error. ``write(_:)`` returns after COMMIT has returned, never before: an acknowledged write is durable. A write
/// whose group fails to commit fails with the commit's error. Readers use their own connections and, in WAL mode,
/// never wait for a group. Writes must not open or end transactions themselves.
package final class GroupCommitter: @unchecked Sendable {  // safe: `database` is used only on the writer thread
    /// Why a write was not run.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// The committer was closed before the write was queued.
        case closed
        package var description: String { "the group committer is closed" }
    }

    private let database: Database
    private let maximumGroupSize: Int
    private let queue = NSCondition()
    private var pending: [PendingWrite] = []
    private var isClosing = false
    private var writerFinished = false
    private let groups = Atomic<Int>(0)
    private let writes = Atomic<Int>(0)

    /// Takes `database` (which must be in WAL mode with full sync, as ``Database`` opens it) for its writer thread.
    package init(database: Database, maximumGroupSize: Int = 256) {
        self.database = database
        self.maximumGroupSize = max(1, maximumGroupSize)
        // Named from inside: Foundation on Linux names only the current thread (`ps -L`, `top -H` show it).
        let thread = Thread { [self] in
            Thread.current.name = "group-committer"
            runWriter()
        }
        thread.start()
    }

    /// Runs `body` in the next group and returns its result once that group has committed.
    /// `body` runs on the writer thread while this call waits for it, so it may capture what the caller holds.
    /// - Throws: what `body` threw (its changes are rolled back, no one else's), the commit's error, or
    ///   ``Failure/closed``.
    package func write<Result>(_ body: (Database) throws -> Result) throws -> Result {
        try withoutActuallyEscaping(body) { body in
            // safe: the caller waits below until the writer has run `body` and signalled, so `body` and `outcome`
            // are never used by two threads at once and never after this call returns.
            let unchecked = UncheckedBox<((Database) throws -> Result)?>(body)
            // The writer may still hold the queued write after answering; it must not hold `body` then.
            defer { unchecked.value = nil }
            let outcome = UncheckedBox<Result?>(nil)
            let write = PendingWrite { database in
                guard let run = unchecked.value else { throw Failure.closed }
                outcome.value = try run(database)
            }
            queue.lock()
            guard !isClosing else {
                queue.unlock()
                throw Failure.closed
            }
            pending.append(write)
            queue.signal()
            queue.unlock()
            write.done.wait()
            if let error = write.error { throw error }
            guard let value = outcome.value else { throw Failure.closed }
            return value
        }
    }

    /// Writes queued and not yet started.
    package var pendingCount: Int {
        queue.lock()
        defer { queue.unlock() }
        return pending.count
    }

    /// Groups committed so far (each one COMMIT, one fsync).
    package var groupsCommitted: Int { groups.load(ordering: .relaxed) }
    /// Writes acknowledged so far.
    package var writesCommitted: Int { writes.load(ordering: .relaxed) }

    /// Finishes the writes already queued, then stops the writer and closes the database.
    package func close() {
        queue.lock()
        isClosing = true
        queue.signal()
        while !writerFinished { queue.wait() }
        queue.unlock()
        database.close()
    }

    private func runWriter() {
        while true {
            queue.lock()
            while pending.isEmpty && !isClosing { queue.wait() }
            if pending.isEmpty {
                writerFinished = true
                queue.broadcast()
                queue.unlock()
                return
            }
            var group = Array(pending.prefix(maximumGroupSize))
            pending.removeFirst(group.count)
            queue.unlock()
            // The writes a lost transaction rolled back run again at once, alone: they succeeded together on
            // this same state, and a caller that makes every group lose it (an add past the bound, over and
            // over) must not keep them waiting. Each lost transaction answers one write, so this ends.
            while !group.isEmpty {
                let (again, unstarted) = commit(group)
                if !unstarted.isEmpty {
                    queue.lock()
                    pending.insert(contentsOf: unstarted, at: 0)
                    queue.unlock()
                }
                group = again
            }
        }
    }

    /// Runs one group and answers its callers. When the transaction was lost (SQLite rolled it back by itself),
    /// the write that lost it is answered with its error, and it returns those that had succeeded before it and
    /// were rolled back with it (`again`), and those not started (`unstarted`). (A single-row write past
    /// `max_page_count` gets SQLITE_FULL and takes the transaction with it: one caller's full keychain does not
    /// fail the others' writes in its group.)
    private func commit(_ group: [PendingWrite]) -> (again: [PendingWrite], unstarted: [PendingWrite]) {
        do {
            try database.begin("BEGIN IMMEDIATE")
        } catch {
            finish(group, failingWith: error)
            return ([], [])
        }
        var ran: [PendingWrite] = []
        for (index, write) in group.enumerated() {
            ran.append(write)
            do {
                try database.executeKept("SAVEPOINT group_write")
                try write.run(database)
                try database.executeKept("RELEASE group_write")
            } catch {
                write.error = error
                if database.isAutocommit {
                    // The whole transaction is gone, and the writes before this one with it: they run again.
                    return answerAllBut(ran, runAgain: group[(index + 1)...])
                }
                do {
                    try database.executeKept("ROLLBACK TO group_write")
                    try database.executeKept("RELEASE group_write")
                } catch {
                    // The failed write's changes could not be undone alone: RELEASE would then commit them with
                    // the group. The whole transaction goes instead, and the writes after this one run next time;
                    // the failed write keeps its own error, which says what was wrong with it.
                    database.rollBack()
                    return answerAllBut(ran, runAgain: group[(index + 1)...])
                }
            }
        }
        do {
            try database.executeKept("COMMIT")
        } catch {
            database.rollBack()
            for write in group where write.error == nil { write.error = error }
        }
        let committed = group.filter { $0.error == nil }.count
        if committed > 0 {
            groups.add(1, ordering: .relaxed)
            writes.add(committed, ordering: .relaxed)
        }
        finish(group)
        return ([], [])
    }

    /// After a rolled-back transaction: answers the writes of `ran` that failed (the last, and any whose own
    /// savepoint was undone), and returns those that had succeeded, to run again, and `rest`, not started.
    private func answerAllBut(
        _ ran: [PendingWrite], runAgain rest: ArraySlice<PendingWrite>
    ) -> (again: [PendingWrite], unstarted: [PendingWrite]) {
        finish(ran.filter { $0.error != nil })
        return (ran.filter { $0.error == nil }, Array(rest))
    }

    private func finish(_ group: [PendingWrite], failingWith error: (any Error)? = nil) {
        for write in group {
            if let error { write.error = error }
            write.done.signal()
        }
    }
}

/// One queued write and how it ended. Set by the writer thread before `done` is signalled, read by the caller
/// after it waits.
// safe: the semaphore orders the writer's and the caller's accesses
private final class PendingWrite: @unchecked Sendable {
    let run: (Database) throws -> Void
    var error: (any Error)?
    let done = DispatchSemaphore(value: 0)

    init(_ run: @escaping (Database) throws -> Void) { self.run = run }
}

/// A value handed to the writer thread while its owner waits for the writer to be done with it.
// safe: used only under the hand-over `write(_:)` makes (the semaphore orders the two threads' accesses)
private final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
