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
    private static let newPasscode = Secret(bytes("5678"))

    /// A keychain with a passcode and `itemCount` generic passwords of classes A and C, and the wrapped item keys
    /// of its rows before any change.
    private struct Filled {
        let keychain: Keychain
        let databasePath: String
        let before: [Int64: [UInt8]]

        /// How many of the rows of `before` another connection sees committed with another wrapped key (0 when it
        /// cannot read them).
        func rewrittenRows(seenBy database: Database) -> Int {
            ResealBatchTests.rewritten((try? ResealBatchTests.wrappedKeys(database)) ?? [:], since: before)
        }

        /// The same, on a connection of its own.
        func rewrittenRows() throws -> Int {
            let database = try Database(path: databasePath)
            defer { database.close() }
            return rewrittenRows(seenBy: database)
        }

        /// Runs `body` on a thread of its own with a connection of its own; returns the thread.
        func onAnotherConnection(_ body: @escaping @Sendable (Database) -> Void) -> Thread {
            let path = databasePath
            let thread = Thread {
                guard let database = try? Database(path: path, busyTimeout: 5) else { return }
                defer { database.close() }
                body(database)
            }
            thread.start()
            return thread
        }

        /// Waits, reading on `database`, until a batch of the reseal has committed (at most a minute).
        func awaitFirstBatch(on database: Database) {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline, rewrittenRows(seenBy: database) == 0 {}
        }
    }

    /// - Parameter betweenBatches: what happens between two batches of a reseal, with the keychain.
    private func filled(
        groupCommit: Bool = false, betweenBatches: (@Sendable (Keychain) -> Void)? = nil
    ) throws -> Filled {
        let home = temporaryHome()
        let opened = Mutex<Keychain?>(nil)
        let keychain = try fastKDFKeychain(home: home) {
            $0.resealBatchRows = Self.batchRows
            $0.groupCommit = groupCommit
            if let betweenBatches {
                $0.betweenResealBatches = { opened.withLock { $0 }.map(betweenBatches) }
            }
        }
        opened.withLock { $0 = keychain }
        try keychain.setPasscode(testPasscode)
        try keychain.add(
            contentsOf: (0..<Self.itemCount).map { index in
                NewItem(
                    itemClass: .genericPassword, attributes: [.account: .string("item-\(index)")],
                    accessibility: index % 2 == 0 ? .whenUnlocked : .afterFirstUnlock, data: bytes("secret-\(index)"))
            })
        let path = home.appendingPathComponent(Keychain.databaseFileName).path
        let database = try Database(path: path)
        defer { database.close() }
        let before = try Self.wrappedKeys(database)
        try #require(before.count == Self.itemCount)
        return Filled(keychain: keychain, databasePath: path, before: before)
    }

    /// How many of the rows of `before` have another wrapped key `now`.
    static func rewritten(_ now: [Int64: [UInt8]], since before: [Int64: [UInt8]]) -> Int {
        now.filter { rowid, key in before[rowid].map { $0 != key } ?? false }.count
    }

    /// The wrapped item keys of the generic passwords, by rowid, as `database` sees them committed.
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
        let filled = try filled(groupCommit: groupCommit)
        let keychain = filled.keychain
        defer { keychain.simulateRestart() }
        let seen = Mutex<Set<Int>>([])
        let finished = Atomic<Bool>(false)
        let watcher = filled.onAnotherConnection { database in
            while !finished.load(ordering: .relaxed) {
                let rewritten = filled.rewrittenRows(seenBy: database)
                seen.withLock { _ = $0.insert(rewritten) }
            }
        }
        try keychain.setPasscode(Self.newPasscode, current: testPasscode)
        finished.store(true, ordering: .relaxed)
        while !watcher.isFinished { Thread.sleep(forTimeInterval: 0.01) }

        let states = seen.withLock { $0 }
        #expect(states.contains { $0 > 0 && $0 < Self.itemCount }, "only these states were committed: \(states)")
        #expect(try filled.rewrittenRows() == Self.itemCount)
        for index in stride(from: 0, to: Self.itemCount, by: 97) {
            #expect(keychain.secretText("item-\(index)") == "secret-\(index)")
        }
        #expect(try keychain.dataProtection.unfinishedRenewal == nil)
    }

    /// Under keychaind's group commit another client's add, queued while the reseal runs, commits before the
    /// reseal ends, sealed under the new keys.
    @Test func anotherWriterCommitsWhileTheResealRuns() throws {
        let filled = try filled(groupCommit: true)
        let keychain = filled.keychain
        defer { keychain.simulateRestart() }
        let rewrittenWhenAdded = Mutex<Int?>(nil)
        let adder = filled.onAnotherConnection { database in
            filled.awaitFirstBatch(on: database)
            guard (try? keychain.addToken("added-during", .whenUnlocked)) != nil else { return }
            let rewritten = filled.rewrittenRows(seenBy: database)
            rewrittenWhenAdded.withLock { $0 = rewritten }
        }
        try keychain.setPasscode(Self.newPasscode, current: testPasscode)
        while !adder.isFinished { Thread.sleep(forTimeInterval: 0.01) }

        let rewritten = try #require(rewrittenWhenAdded.withLock { $0 })
        #expect(rewritten < Self.itemCount, "the add waited for the whole reseal")
        #expect(keychain.secretText("added-during") == "added-during")
        let database = try Database(path: filled.databasePath)
        defer { database.close() }
        let added = try #require(try Self.wrappedKeys(database).first { filled.before[$0.key] == nil }?.value)
        #expect(throws: Never.self) { try keychain.classKey(.whenUnlocked).unwrap(added) }
    }

    /// A walk cut short (the keychain locked between two batches) leaves the renewal marked unfinished, and the next
    /// unlock reseals the rest.
    @Test func aLockBetweenBatchesLeavesTheRestToTheNextUnlock() throws {
        let locks = Atomic<Int>(0)
        let filled = try filled { keychain in
            guard locks.add(1, ordering: .relaxed).newValue == 1 else { return }
            try? keychain.lock()
        }
        let keychain = filled.keychain
        defer { keychain.simulateRestart() }
        try keychain.setGracePeriod(0)
        try keychain.setPasscode(Self.newPasscode, current: testPasscode)
        try #require(locks.load(ordering: .relaxed) > 0)
        #expect(try keychain.lockState != .unlocked)
        let rewrittenWhileLocked = try filled.rewrittenRows()
        #expect(rewrittenWhileLocked > 0 && rewrittenWhileLocked < Self.itemCount)
        #expect(try keychain.dataProtection.unfinishedRenewal != nil)

        try keychain.unlock(passcode: Self.newPasscode)
        #expect(try keychain.dataProtection.unfinishedRenewal == nil)
        #expect(try filled.rewrittenRows() == Self.itemCount)
        for index in stride(from: 0, to: Self.itemCount, by: 89) {
            #expect(keychain.secretText("item-\(index)") == "secret-\(index)")
        }
    }

    /// A removal deletes the WhenPasscodeSetThisDeviceOnly items before the rest of its reseal lets other callers
    /// in: a passcode set between two batches does not keep them (they would stay, opened by no key).
    @Test func aPasscodeSetDuringARemovalsResealDoesNotKeepItsItems() throws {
        let sets = Atomic<Int>(0)
        let filled = try filled { keychain in
            guard sets.add(1, ordering: .relaxed).newValue == 1 else { return }
            try? keychain.setPasscode(Self.newPasscode)
        }
        let keychain = filled.keychain
        defer { keychain.simulateRestart() }
        try keychain.addToken("passcode-only", .whenPasscodeSetThisDeviceOnly)
        let removed = try keychain.removePasscode(current: testPasscode)
        try #require(sets.load(ordering: .relaxed) > 0)
        #expect(removed == 1)
        #expect(try keychain.dataProtection.hasPasscode)
        #expect(keychain.readStatus("passcode-only") == SecurityStatus.itemNotFound)
        for index in stride(from: 0, to: Self.itemCount, by: 89) {
            #expect(keychain.secretText("item-\(index)") == "secret-\(index)")
        }
    }
}
