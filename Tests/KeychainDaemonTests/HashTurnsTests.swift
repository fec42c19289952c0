import Foundation
import Synchronization
import Testing

@testable import KeychainDaemon

/// A flag threads share.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

/// The turns at reading executables: a bound for all users, a share for each uid, and a wait with an end.
@Suite struct HashTurnsTests {
    /// Waits (up to `seconds`) until `condition` holds.
    static func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(1000)
        }
        return false
    }

    @Test func oneUIDTakesItsShareAndAnotherStillHasATurn() throws {
        let turns = HashTurns(slots: 2, patience: 30)
        #expect(turns.sharePerUID == 1)
        #expect(turns.begin(uid: 1000))
        // uid 1000's second reading waits: its share is taken, though a slot is free.
        let secondStarted = Flag()
        let second = Thread {
            if turns.begin(uid: 1000) {
                secondStarted.set()
                turns.end(uid: 1000)
            }
        }
        second.start()
        #expect(Self.waitUntil { turns.counts == HashTurns.Counts(running: 1, waiting: 1) })
        // Another uid, which came after it, goes first.
        #expect(turns.begin(uid: 1001))
        #expect(turns.counts == HashTurns.Counts(running: 2, waiting: 1))
        #expect(!secondStarted.isSet)
        turns.end(uid: 1001)
        #expect(!secondStarted.isSet)
        turns.end(uid: 1000)
        #expect(Self.waitUntil { secondStarted.isSet })
        #expect(Self.waitUntil { turns.counts == HashTurns.Counts(running: 0, waiting: 0) })
    }

    @Test func noMoreThanTheSlotsRunAtOnceAndAWaitEnds() {
        let turns = HashTurns(slots: 4, patience: 0.2)
        #expect(turns.sharePerUID == 2)
        #expect(turns.begin(uid: 1) && turns.begin(uid: 1))
        #expect(turns.begin(uid: 2) && turns.begin(uid: 3))
        let started = Date()
        // Every slot is taken: a fourth uid waits its patience, then has no turn.
        #expect(!turns.begin(uid: 4))
        #expect(Date().timeIntervalSince(started) >= 0.2)
        #expect(turns.counts == HashTurns.Counts(running: 4, waiting: 0))
        turns.end(uid: 3)
        #expect(turns.begin(uid: 4))
        // uid 1 has its share: it waits even with a slot free.
        turns.end(uid: 4)
        #expect(!turns.begin(uid: 1))
        for uid: UInt32 in [1, 1, 2] { turns.end(uid: uid) }
        #expect(turns.counts == HashTurns.Counts(running: 0, waiting: 0))
        #expect(HashTurns(slots: 1).sharePerUID == 1)
        #expect(HashTurns.defaultSlots >= 2)
    }
}
