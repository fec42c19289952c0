import Foundation
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Polling before sleeping on a socket: the budget follows the waits, and a polled receive gives what a blocking
/// one gives.
@Suite struct AdaptiveSpinTests {
    @Test func quickAnswersKeepAPollOfOneAndAHalfTimesTheirAverage() {
        var spin = AdaptiveSpin(averageWaitNanoseconds: 40_000)
        for _ in 0..<50 { spin.waited(nanoseconds: 20_000) }
        #expect(spin.averageWaitNanoseconds < 21_000 && spin.averageWaitNanoseconds >= 20_000)
        #expect(spin.budgetNanoseconds == spin.averageWaitNanoseconds * 3 / 2)
    }

    @Test func slowAnswersStopThePollingAndQuickOnesBringItBackWithinAFewWaits() {
        var spin = AdaptiveSpin()
        for _ in 0..<10 { spin.waited(nanoseconds: 5_000_000_000) }  // an idle client: seconds between requests
        #expect(spin.budgetNanoseconds == 0)
        #expect(spin.averageWaitNanoseconds <= 4 * AdaptiveSpin.longestNanoseconds)
        var waits = 0
        while spin.budgetNanoseconds == 0 {
            spin.waited(nanoseconds: 10_000)
            waits += 1
        }
        #expect(waits <= 8)
        #expect(spin.budgetNanoseconds <= AdaptiveSpin.longestNanoseconds)
    }

    @Test func neverPollsWhateverTheWaits() {
        var spin = AdaptiveSpin.never
        for _ in 0..<20 { spin.waited(nanoseconds: 1_000) }
        #expect(spin.budgetNanoseconds == 0)
    }

    @Test func aGateLetsNoMoreThanItsLimitPollAtOnce() {
        // As many processors as there could be runnable threads: the machine is never too busy for this gate.
        let gate = SpinGate(limit: 1, processors: 1 << 30)
        #expect(gate.enter() == .poll)
        #expect(gate.enter() == .enoughPollers)
        gate.leave()
        #expect(gate.enter() == .poll)
        gate.leave()
        #expect(SpinGate(limit: 0).enter() == .enoughPollers)
    }

    @Test func aGateRefusesWhileTheMachineHasMoreRunnableThreadsThanProcessors() throws {
        // This thread is runnable, so a machine of no processors is always busy.
        let gate = SpinGate(limit: 4, processors: 0)
        #expect(try #require(gate.runnableThreads()) >= 1)
        #expect(gate.enter() == .machineBusy)
        #expect(gate.enter() == .machineBusy)  // a refusal takes no turn
        #expect(SpinGate(limit: 1, processors: 1 << 30).enter() == .poll)
    }

    @Test func theLoadAverageIsReadAgainOnlyWhenItsReadingIsOld() throws {
        let gate = SpinGate(limit: 4, processors: 1 << 30)
        let start = SystemCalls.monotonicNanoseconds()
        let first = try #require(gate.recentRunnableThreads(now: start))
        #expect(gate.loadAverageReads == 1)
        for step in 0..<100 {
            let now = start + UInt64(step) * (SpinGate.readingLifetimeNanoseconds / 200)
            #expect(gate.recentRunnableThreads(now: now) == first)
        }
        #expect(gate.loadAverageReads == 1)
        _ = gate.recentRunnableThreads(now: start + SpinGate.readingLifetimeNanoseconds + 2_048)
        #expect(gate.loadAverageReads == 2)
    }

    @Test func theRunnableCountIsReadFromLoadAverageText() {
        func runnable(_ text: String) -> Int? {
            Array(text.utf8).withUnsafeBytes { SpinGate.runnable(inLoadAverage: $0) }
        }
        #expect(runnable("0.52 0.58 0.59 3/467 12345\n") == 3)
        #expect(runnable("12.00 9.10 4.00 17/1203 99\n") == 17)
        #expect(runnable("0.52 0.58") == nil)
        #expect(runnable("0.52 0.58 0.59 x/467 1") == nil)
    }

    @Test func aContendedPollSleepsTheNextWaitsAtOnce() {
        var spin = AdaptiveSpin(averageWaitNanoseconds: 10_000)
        #expect(spin.budgetNanoseconds > 0)
        spin.contended()
        #expect(spin.budgetNanoseconds == 0)
        var waits = 0
        while spin.budgetNanoseconds == 0 {
            spin.waited(nanoseconds: 10_000)
            waits += 1
        }
        #expect(waits >= 2 && waits <= 8)
    }

    @Test func oneLateYieldSleepsOnlyItsOwnWait() {
        var spin = AdaptiveSpin(averageWaitNanoseconds: 10_000)
        spin.yieldedLate()
        spin.waited(nanoseconds: 40_000)  // the wait slept: woken late
        #expect(spin.budgetNanoseconds > 0)
    }

    @Test func aSecondLateYieldBeforeAPollEndsWellSleepsTheNextWaitsAtOnce() {
        var spin = AdaptiveSpin(averageWaitNanoseconds: 10_000)
        spin.yieldedLate()
        spin.waited(nanoseconds: 40_000)
        spin.yieldedLate()
        #expect(spin.budgetNanoseconds == 0)
    }

    @Test func aPollThatEndsWithAnAnswerForgetsAnEarlierLateYield() {
        var spin = AdaptiveSpin(averageWaitNanoseconds: 10_000)
        spin.yieldedLate()
        spin.waited(nanoseconds: 40_000)
        spin.waited(nanoseconds: 10_000, polled: true)
        spin.yieldedLate()
        #expect(spin.budgetNanoseconds > 0)
    }

    @Test func aPolledReceiveGetsWhatArrivesDuringThePollAfterItAndTheEndOfTheStream() throws {
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { SystemCalls.close(ends[0]) }
        var buffer = [UInt8](repeating: 0, count: 16)
        var spin = AdaptiveSpin(averageWaitNanoseconds: 100_000)
        func receive() throws -> Int {
            try buffer.withUnsafeMutableBytes { raw in
                try SystemCalls.receive(ends[0], into: raw, spinning: &spin)
            }
        }
        #expect(try SystemCalls.receiveIfArrived(ends[0], into: buffer.withUnsafeMutableBytes { $0 }) == .nothingYet)
        try SystemCalls.sendAll(ends[1], [1, 2, 3])
        #expect(try receive() == 3)
        #expect(buffer.prefix(3) == [1, 2, 3])
        // Long after the poll gave up: the blocking receive still gets it.
        let writer = ends[1]
        let late = Thread {
            usleep(50_000)
            try? SystemCalls.sendAll(writer, [9])
            SystemCalls.close(writer)
        }
        late.start()
        #expect(try receive() == 1)
        #expect(buffer[0] == 9)
        #expect(spin.averageWaitNanoseconds > 100_000)
        #expect(try receive() == 0)
    }
}
