import Foundation
import Synchronization
import Testing

@testable import KeychainStore

/// The group committer over real SQLite: many callers per transaction, a savepoint each, nobody answered before
/// COMMIT, and readers on their own connections never waiting for a group.
@Suite struct GroupCommitterTests {
    /// A committer on a fresh database with a table `t (k TEXT UNIQUE)`.
    private func makeCommitter() throws -> (GroupCommitter, String) {
        let path = temporaryPath()
        let database = try Database(path: path)
        try database.execute("CREATE TABLE t (k TEXT UNIQUE)")
        return (GroupCommitter(database: database), path)
    }

    private func insert(_ key: String) -> @Sendable (Database) throws -> Void {
        { database in try database.statement("INSERT INTO t VALUES (?)").run([.text(key)]) }
    }

    private func keys(at path: String) throws -> [String] {
        let database = try Database(path: path)
        defer { database.close() }
        return try database.statement("SELECT k FROM t ORDER BY k").rows().compactMap { $0.first?.textValue }
    }

    /// Holds the writer inside a group until released, so that the writes queued meanwhile form the next group.
    private final class Gate: @unchecked Sendable {  // safe: semaphores only
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
    }

    /// Runs `body` on a thread of its own (blocking writes would starve Dispatch's small pool on two cores).
    private func spawn(in group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread {
            body()
            group.leave()
        }.start()
    }

    /// Holds the writer inside a group of one write (which then inserts `blocker`, unless told not to), so that the
    /// writes queued meanwhile form the next group; release it with the gate.
    private func holdWriter(_ committer: GroupCommitter, insertingBlocker: Bool = true) -> Gate {
        let gate = Gate()
        Thread {
            try? committer.write { database in
                gate.entered.signal()
                gate.release.wait()
                guard insertingBlocker else { return }
                try database.statement("INSERT INTO t VALUES (?)").run([.text("blocker")])
            }
        }.start()
        gate.entered.wait()
        return gate
    }

    /// A write that gives up the transaction itself, as SQLite does on a full disk or past the bound.
    private static let losingTheTransaction: @Sendable (Database) throws -> Void = { database in
        try database.execute("ROLLBACK")
        struct Lost: Error {}
        throw Lost()
    }

    /// Queues `writes` in their order behind a writer held idle, so that they form one group, then releases it
    /// and waits: whether each succeeded, by name.
    private func runInOrder(
        _ writes: [(name: String, body: @Sendable (Database) throws -> Void)], on committer: GroupCommitter
    ) -> [String: Bool] {
        let gate = holdWriter(committer, insertingBlocker: false)
        let results = Mutex<[String: Bool]>([:])
        let group = DispatchGroup()
        for (name, body) in writes {
            let queued = committer.pendingCount
            spawn(in: group) {
                let succeeded = (try? committer.write(body)) != nil
                results.withLock { $0[name] = succeeded }
            }
            waitUntil { committer.pendingCount == queued + 1 }
        }
        gate.release.signal()
        group.wait()
        return results.withLock { $0 }
    }

    /// Inserts each of `keys` from a thread of its own behind the held writer, so that they form one group, then
    /// releases the writer and waits: each key's answer, `ok`, or what `naming` calls its store error.
    private func insertAsOneGroup(
        _ keys: [String], on committer: GroupCommitter, behind gate: Gate,
        naming name: @escaping @Sendable (StoreError) -> String
    ) -> [String: String] {
        let results = Mutex<[String: String]>([:])
        let group = DispatchGroup()
        for key in keys {
            spawn(in: group) {
                do {
                    try committer.write(insert(key))
                    results.withLock { $0[key] = "ok" }
                } catch let error as StoreError {
                    results.withLock { $0[key] = name(error) }
                } catch {
                    results.withLock { $0[key] = "\(error)" }
                }
            }
        }
        waitUntil { committer.pendingCount == keys.count }
        #expect(committer.pendingCount == keys.count)
        gate.release.signal()
        group.wait()
        return results.withLock { $0 }
    }

    private func waitUntil(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline { usleep(1_000) }
    }

    /// A write past the database's bound (`max_page_count`) gets SQLITE_FULL, and SQLite gives up the whole
    /// transaction with it: the other writes of its group run again in the next, and only that caller fails.
    @Test func aWritePastTheBoundFailsOnlyItsCallerThoughSQLiteDropsTheGroup() throws {
        let (committer, path) = try makeCommitter()
        try committer.write { try $0.limitSize(toBytes: 64 * 1024) }
        let gate = holdWriter(committer)
        let large = String(repeating: "x", count: 200_000)
        let keys = (0..<9).map { $0 == 4 ? large : "key-\($0)" }
        let answers = insertAsOneGroup(keys, on: committer, behind: gate) { $0.isDiskFull ? "full" : "\($0)" }
        committer.close()
        #expect(answers[large] == "full")
        #expect(answers.filter { $0.value == "ok" }.count == 8, "\(answers.filter { $0.key != large })")
        #expect(try self.keys(at: path) == ["blocker"] + (0..<9).filter { $0 != 4 }.map { "key-\($0)" })
    }

    @Test func aDuplicateInTheMiddleOfAGroupFailsOnlyItsCaller() throws {
        let (committer, path) = try makeCommitter()
        try committer.write(insert("existing"))
        let gate = holdWriter(committer)
        let groupsBefore = committer.groupsCommitted
        let keys = (0..<9).map { $0 == 4 ? "existing" : "key-\($0)" }
        let outcome = insertAsOneGroup(keys, on: committer, behind: gate) {
            $0.isUniqueViolation ? "duplicate" : "\($0)"
        }
        committer.close()
        #expect(outcome["existing"] == "duplicate")
        for key in keys where key != "existing" { #expect(outcome[key] == "ok", "\(key)") }
        // The blocker's group, then one group for all nine queued behind it.
        #expect(committer.groupsCommitted == groupsBefore + 2)
        #expect(try self.keys(at: path) == (["blocker", "existing"] + keys.filter { $0 != "existing" }).sorted())
    }

    @Test func aWriteIsAcknowledgedOnlyOnceAnotherConnectionSeesIt() throws {
        let (committer, path) = try makeCommitter()
        defer { committer.close() }
        let reader = try Database(path: path)
        defer { reader.close() }
        for index in 0..<20 {
            try committer.write(insert("k\(index)"))
            let count = try reader.statement("SELECT count(*) FROM t").rows().first?.first?.integerValue
            #expect(count == Int64(index + 1))
        }
    }

    @Test func readersDoNotWaitForAGroup() throws {
        let (committer, path) = try makeCommitter()
        try committer.write(insert("before"))
        let gate = Gate()
        let finished = DispatchSemaphore(value: 0)
        Thread {
            try? committer.write { database in
                try database.statement("INSERT INTO t VALUES (?)").run([.text("during")])
                gate.entered.signal()
                gate.release.wait()
            }
            finished.signal()
        }.start()
        gate.entered.wait()
        // The group holds the write lock with an uncommitted row: a reader sees the last commit, at once.
        let reader = try Database(path: path, busyTimeout: 0)
        let started = Date()
        let seen = try reader.statement("SELECT k FROM t").rows().compactMap { $0.first?.textValue }
        reader.close()
        #expect(seen == ["before"])
        #expect(Date().timeIntervalSince(started) < 5)
        gate.release.signal()
        finished.wait()
        committer.close()
        #expect(try keys(at: path) == ["before", "during"])
    }

    @Test func manyThreadsShareFewerCommitsThanWrites() throws {
        let (committer, path) = try makeCommitter()
        let group = DispatchGroup()
        let failures = Atomic<Int>(0)
        for thread in 0..<16 {
            spawn(in: group) {
                for index in 0..<25 {
                    do { try committer.write(insert("t\(thread)-\(index)")) } catch {
                        failures.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        group.wait()
        committer.close()
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(committer.writesCommitted == 400)
        #expect(committer.groupsCommitted < 400)
        #expect(try keys(at: path).count == 400)
        let database = try Database(path: path)
        defer { database.close() }
        #expect(try database.integrityCheck() == "ok")
    }

    /// A write that loses the transaction (as SQLite gives it up on a full disk or past the bound) fails alone:
    /// the writes before it, rolled back with it, run again in the next group with those after it.
    @Test func aLostTransactionFailsOnlyTheWriteThatLostItAndRunsTheOthersAgain() throws {
        let (committer, path) = try makeCommitter()
        // Queued in order: a good write, one that ends the transaction (as SQLite does on a full disk), another.
        let outcome = runInOrder(
            [("first", insert("first")), ("breaker", Self.losingTheTransaction), ("after", insert("after"))],
            on: committer)
        committer.close()
        #expect(outcome == ["first": true, "breaker": false, "after": true])
        #expect(try keys(at: path) == ["after", "first"])
    }

    /// A write rolled back with a lost transaction runs again at once, alone: however many writes that lose their
    /// transaction are queued after it (one app adding past its bound, over and over), it runs twice and is
    /// answered, rather than being rolled back by each of them in turn.
    @Test func aWriteRolledBackWithALostTransactionRunsAgainAloneAndIsNotStarved() throws {
        let (committer, path) = try makeCommitter()
        let runs = Atomic<Int>(0)
        let good: @Sendable (Database) throws -> Void = { database in
            runs.add(1, ordering: .relaxed)
            try database.statement("INSERT INTO t VALUES (?)").run([.text("good")])
        }
        let breakers = (0..<8).map { (name: "breaker-\($0)", body: Self.losingTheTransaction) }
        let outcome = runInOrder([("good", good)] + breakers, on: committer)
        committer.close()
        #expect(outcome["good"] == true)
        #expect(runs.load(ordering: .relaxed) == 2, "ran once in the group and once alone")
        #expect(outcome.filter { $0.key.hasPrefix("breaker") && !$0.value }.count == 8)
        #expect(try keys(at: path) == ["good"])
    }

    @Test func aClosedCommitterRefusesWrites() throws {
        let (committer, _) = try makeCommitter()
        committer.close()
        #expect(throws: GroupCommitter.Failure.closed) { try committer.write(insert("late")) }
    }
}
