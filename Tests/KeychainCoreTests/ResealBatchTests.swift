import Foundation
import KeychainStore
import Synchronization
import Testing

@testable import KeychainCore

/// A passcode change reseals the items of the renewed classes in write sections of at most
/// ``KeychainConfiguration/resealBatchRows`` rows: other writers commit between two, and the reseal never holds a
/// whole class's rows in memory. Watched from another connection, which sees only committed states.
@Suite(.serialized) struct ResealBatchTests {
    private static let itemCount = 600
    private static let batchRows = 40

    private func keychain(home: URL, groupCommit: Bool = false) throws -> Keychain {
        try fastKDFKeychain(home: home) {
            $0.resealBatchRows = Self.batchRows
            $0.groupCommit = groupCommit
        }
    }

    private func fill(_ keychain: Keychain) throws {
        try keychain.add(
            contentsOf: (0..<Self.itemCount).map { index in
                NewItem(
                    itemClass: .genericPassword, attributes: [.account: .string("item-\(index)")],
                    accessibility: index % 2 == 0 ? .whenUnlocked : .afterFirstUnlock, data: bytes("secret-\(index)"))
            })
    }

    /// The wrapped item keys of the generic passwords, by rowid, as another connection sees them committed.
    /// How many of the rows of `before` have another wrapped key `now`.
    static func rewritten(_ now: [Int64: [UInt8]], since before: [Int64: [UInt8]]) -> Int {
        now.filter { rowid, key in before[rowid].map { $0 != key } ?? false }.count
    }

    /// How many of the rows of `before` another connection sees committed with another wrapped key (0 when it
    /// cannot read them).
    static func rewrittenRows(in database: Database, since before: [Int64: [UInt8]]) -> Int {
        rewritten((try? wrappedKeys(database)) ?? [:], since: before)
    }

    static func wrappedKeys(_ database: Database) throws -> [Int64: [UInt8]] {
        var keys: [Int64: [UInt8]] = [:]
        for row in try database.statement("SELECT rowid, wrappedkey FROM genp").rows() {
            guard case .integer(let rowid) = row[0], case .blob(let key) = row[1] else { continue }
            keys[rowid] = key
        }
        return keys
    }

    @Test(arguments: [false, true])
    func aChangeCommitsItsResealInBatches(groupCommit: Bool) throws {
        let home = temporaryHome()
        let keychain = try keychain(home: home, groupCommit: groupCommit)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try fill(keychain)
        let path = home.appendingPathComponent(Keychain.databaseFileName).path
        let before = try {
            let database = try Database(path: path)
            defer { database.close() }
            return try Self.wrappedKeys(database)
        }()
        try #require(before.count == Self.itemCount)

        let watcher = RewriteWatcher(path: path, before: before)
        try keychain.setPasscode(Secret(bytes("5678")), current: testPasscode)
        let states = watcher.stop()
        #expect(states.contains { $0 > 0 && $0 < Self.itemCount }, "only these states were committed: \(states)")
        let database = try Database(path: path)
        defer { database.close() }
        let after = try Self.wrappedKeys(database)
        #expect(ResealBatchTests.rewritten(after, since: before) == Self.itemCount)
        for index in stride(from: 0, to: Self.itemCount, by: 97) {
            #expect(keychain.secretText("item-\(index)") == "secret-\(index)")
        }
        #expect(try keychain.dataProtection.unfinishedRenewal == nil)
    }

    /// Under keychaind's group commit another client's add, queued while the reseal runs, commits before the
    /// reseal ends, sealed under the new keys.
    @Test func anotherWriterCommitsWhileTheResealRuns() throws {
        let home = temporaryHome()
        let keychain = try keychain(home: home, groupCommit: true)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try fill(keychain)
        let path = home.appendingPathComponent(Keychain.databaseFileName).path
        let before = try {
            let database = try Database(path: path)
            defer { database.close() }
            return try Self.wrappedKeys(database)
        }()

        let rewrittenWhenAdded = Mutex<Int?>(nil)
        let adder = Thread {
            guard let database = try? Database(path: path, busyTimeout: 5) else { return }
            defer { database.close() }
            // Waits until the reseal has committed a batch, then adds and looks at how far it had got.
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let rewritten = Self.rewrittenRows(in: database, since: before)
                guard rewritten == 0 else { break }
            }
            guard (try? keychain.addToken("added-during", .whenUnlocked)) != nil else { return }
            let rewritten = Self.rewrittenRows(in: database, since: before)
            rewrittenWhenAdded.withLock { $0 = rewritten }
        }
        adder.start()
        try keychain.setPasscode(Secret(bytes("5678")), current: testPasscode)
        while !adder.isFinished { Thread.sleep(forTimeInterval: 0.01) }

        let rewritten = try #require(rewrittenWhenAdded.withLock { $0 })
        #expect(rewritten < Self.itemCount, "the add waited for the whole reseal")
        #expect(keychain.secretText("added-during") == "added-during")
    }

    /// A walk cut short (the keychain locked between two batches) leaves the renewal marked unfinished, and the next
    /// unlock reseals the rest.
    @Test func aLockBetweenBatchesLeavesTheRestToTheNextUnlock() throws {
        let home = temporaryHome()
        let keychain = try keychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try fill(keychain)
        let newPasscode = Secret(bytes("5678"))
        let locked = Atomic<Bool>(false)
        let path = home.appendingPathComponent(Keychain.databaseFileName).path
        let before = try {
            let database = try Database(path: path)
            defer { database.close() }
            return try Self.wrappedKeys(database)
        }()
        let locker = Thread {
            guard let database = try? Database(path: path, busyTimeout: 5) else { return }
            defer { database.close() }
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let rewritten = Self.rewrittenRows(in: database, since: before)
                if rewritten > 0 {
                    try? keychain.lock()
                    locked.store(true, ordering: .relaxed)
                    return
                }
            }
        }
        locker.start()
        try keychain.setPasscode(newPasscode, current: testPasscode)
        while !locker.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        let didLock = locked.load(ordering: .relaxed)
        try #require(didLock)
        let rewrittenWhileLocked = try {
            let database = try Database(path: path)
            defer { database.close() }
            return Self.rewrittenRows(in: database, since: before)
        }()
        if rewrittenWhileLocked < Self.itemCount {
            #expect(try keychain.dataProtection.unfinishedRenewal != nil)
        }

        try keychain.unlock(passcode: newPasscode)
        #expect(try keychain.dataProtection.unfinishedRenewal == nil)
        let database = try Database(path: path)
        defer { database.close() }
        let after = try Self.wrappedKeys(database)
        #expect(ResealBatchTests.rewritten(after, since: before) == Self.itemCount)
        for index in stride(from: 0, to: Self.itemCount, by: 89) {
            #expect(keychain.secretText("item-\(index)") == "secret-\(index)")
        }
    }
}

/// Another connection looking at the committed rows without a pause until ``stop()``: how many of them had been
/// rewritten since `before`, at each look.
private final class RewriteWatcher: @unchecked Sendable {  // safe: `seen` is used under `lock`
    private let lock = NSLock()
    private var seen: Set<Int> = []
    private let finished = Atomic<Bool>(false)
    private var thread: Thread?

    init(path: String, before: [Int64: [UInt8]]) {
        let thread = Thread { [self] in
            guard let database = try? Database(path: path, busyTimeout: 5) else { return }
            defer { database.close() }
            while !finished.load(ordering: .relaxed) {
                guard let now = try? ResealBatchTests.wrappedKeys(database) else { continue }
                let rewritten = ResealBatchTests.rewritten(now, since: before)
                lock.withLock { _ = seen.insert(rewritten) }
            }
        }
        self.thread = thread
        thread.start()
    }

    /// Stops looking; the counts seen.
    func stop() -> Set<Int> {
        finished.store(true, ordering: .relaxed)
        while thread?.isFinished == false { Thread.sleep(forTimeInterval: 0.01) }
        return lock.withLock { seen }
    }
}
