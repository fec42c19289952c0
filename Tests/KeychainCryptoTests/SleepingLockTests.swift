import Foundation
import KeychainCrypto
import Testing

/// The lock behind the reads' connection and the key-wrap ciphers: one holder at a time, errors pass through.
@Suite struct SleepingLockTests {
    private struct Refused: Error, Equatable {}

    @Test func threadsTakeTurnsAndNoIncrementIsLost() {
        let counter = SleepingLock(0)
        let threads = 8
        let rounds = 20_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<rounds {
                counter.withLock { value in
                    let seen = value
                    value = seen + 1
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * rounds)
    }

    @Test func anErrorLeavesTheLockFreeAndTheValueAsTheBodyLeftIt() {
        let lock = SleepingLock([1])
        #expect(throws: Refused()) {
            try lock.withLock { value in
                value.append(2)
                throw Refused()
            }
        }
        #expect(lock.withLock { $0 } == [1, 2])
    }

    @Test func aHeldLockIsNotWaitedForByTheTryAndAFreeOneIsTaken() {
        let lock = SleepingLock(0)
        let held = lock.withLock { _ in
            // Another thread's try while this one holds it (the mutex is not recursive: a thread of its own).
            let tried = SleepingLock<Int?>(nil)
            let other = Thread { tried.withLock { $0 = lock.withLockIfAvailable { $0 } ?? -1 } }
            other.start()
            while tried.withLock({ $0 }) == nil { usleep(1000) }
            return tried.withLock { $0 }
        }
        #expect(held == -1)
        #expect(
            lock.withLockIfAvailable { value -> Int in
                value = 7
                return value
            } == 7)
    }
}
