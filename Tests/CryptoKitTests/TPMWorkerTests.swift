import Dispatch
import Foundation
import Synchronization
import Testing

@testable import TPMEnclave

/// The worker thread that runs a TPM connection's calls, under contention, with calls that end just as their
/// callers' timeouts pass, and closed while a call runs. Its context here is a plain object that records how it is
/// used: the worker itself is the code under test, and no TPM is needed to make its calls race.
@Suite(.serialized)
struct TPMWorkerTests {
    /// What a worker's thread does with its context: opened and released once, never used by two calls at once,
    /// never used after its release.
    final class Probe: @unchecked Sendable {
        let ledger: Ledger
        private let inUse = Atomic<Bool>(false)

        init(_ ledger: Ledger) {
            self.ledger = ledger
            ledger.opened.add(1, ordering: .relaxed)
        }

        deinit { ledger.released.add(1, ordering: .relaxed) }

        /// A call's use of the context, for `seconds`.
        func use(for seconds: Double) {
            if inUse.exchange(true, ordering: .acquiring) { ledger.overlaps.add(1, ordering: .relaxed) }
            usleep(useconds_t(seconds * 1_000_000))
            inUse.store(false, ordering: .releasing)
        }
    }

    final class Ledger: Sendable {
        let opened = Atomic<Int>(0)
        let released = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
    }

    /// The workers of one connection, as TPMConnection keeps them: a new one once the current one was given up.
    final class Connection: Sendable {
        let ledger = Ledger()
        private let current: Mutex<TPMWorker<Probe>?> = Mutex(nil)

        func worker() throws(TPMError) -> TPMWorker<Probe> {
            try current.withLock { (current) throws(TPMError) -> TPMWorker<Probe> in
                if let worker = current, !worker.isGivenUp { return worker }
                let ledger = ledger
                let worker = TPMWorker(tcti: "probe", openWithin: 5) { () throws(TPMError) in Probe(ledger) }
                try worker.waitUntilOpen()
                current = worker
                return worker
            }
        }

        func close() {
            current.withLock { $0 }?.close(within: 5)
        }
    }

    /// A call that ends as its caller's timeout passes either answered (and the worker goes on) or timed out (and the
    /// worker was given up): never an answer from a worker its caller gave up, which failed the calls queued
    /// behind it with "did not answer" although the TPM had.
    @Test func aCallEndingAsItsTimeoutPassesSucceedsOnlyOnAWorkerItDidNotGiveUp() throws {
        let connection = Connection()
        var answeredOnAGivenUpWorker = 0
        var answered = 0
        var timedOut = 0
        let end = Date() + 15
        for _ in 0..<4000 where Date() < end {
            let worker = try connection.worker()
            do {
                try worker.run(within: 0.002) { probe in probe.use(for: 0.002) }
                answered += 1
                if worker.isGivenUp { answeredOnAGivenUpWorker += 1 }
            } catch {
                #expect(error == .timedOut(tcti: "probe", seconds: 0.002))
                timedOut += 1
            }
        }
        connection.close()
        #expect(answeredOnAGivenUpWorker == 0, "of \(answered) calls answered, \(timedOut) timed out")
        #expect(connection.ledger.overlaps.load(ordering: .relaxed) == 0)
    }

    /// Many callers at once, some of whose calls outlast their timeouts: each gets its own call's answer or a
    /// timeout within its bound, no two calls use a context at once, and every context is released once.
    @Test func manyCallersGetTheirOwnAnswersOrATimeoutAndNoContextIsShared() throws {
        let connection = Connection()
        let callers = 8
        let calls = 150
        let wrong = Atomic<Int>(0)
        let late = Atomic<Int>(0)
        let answered = Atomic<Int>(0)
        let timedOut = Atomic<Int>(0)
        let done = DispatchGroup()
        for caller in 0..<callers {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                for call in 0..<calls {
                    let mine = caller * 10_000 + call
                    // Mostly short calls, now and then one past the timeout.
                    let length = call % 17 == 0 ? 0.03 : Double.random(in: 0...0.002)
                    let started = DispatchTime.now()
                    do {
                        let answer = try connection.worker().run(within: 0.01) { probe in
                            probe.use(for: length)
                            return mine
                        }
                        if answer != mine { wrong.add(1, ordering: .relaxed) }
                        answered.add(1, ordering: .relaxed)
                    } catch {
                        timedOut.add(1, ordering: .relaxed)
                    }
                    // At most the timeout to start and the timeout to finish, with room for a loaded machine.
                    let waited = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                    if waited > 2 { late.add(1, ordering: .relaxed) }
                }
            }
        }
        #expect(done.wait(timeout: .now() + 120) == .success, "callers still waiting after 120 s")
        #expect(wrong.load(ordering: .relaxed) == 0, "calls answered with another call's result")
        #expect(late.load(ordering: .relaxed) == 0)
        #expect(answered.load(ordering: .relaxed) + timedOut.load(ordering: .relaxed) == callers * calls)
        #expect(answered.load(ordering: .relaxed) > 0)
        connection.close()
        let ledger = connection.ledger
        #expect(ledger.overlaps.load(ordering: .relaxed) == 0, "two calls used one context at once")
        // Given up workers release their contexts once their calls end (0.03 s at most).
        let settled = Date() + 10
        while ledger.released.load(ordering: .relaxed) < ledger.opened.load(ordering: .relaxed), Date() < settled {
            usleep(10_000)
        }
        #expect(ledger.released.load(ordering: .relaxed) == ledger.opened.load(ordering: .relaxed))
    }

    /// Closing while a call runs (and another waits) lets both finish, then releases the context, within its bound.
    @Test func closingWhileACallRunsLetsTheQueuedCallsFinishFirst() throws {
        let connection = Connection()
        let worker = try connection.worker()
        let answers = Mutex<[Int]>([])
        let done = DispatchGroup()
        for value in [1, 2] {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                if let answer = try? worker.run(
                    within: 5,
                    { probe in
                        probe.use(for: 0.2)
                        return value
                    })
                {
                    answers.withLock { $0.append(answer) }
                }
            }
            usleep(50_000)
        }
        let started = Date()
        worker.close(within: 5)
        let closing = Date().timeIntervalSince(started)
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(answers.withLock { $0.sorted() } == [1, 2])
        #expect(closing > 0.2 && closing < 5, "close returned after \(closing) s")
        #expect(connection.ledger.released.load(ordering: .relaxed) == 1)
        #expect(connection.ledger.overlaps.load(ordering: .relaxed) == 0)
    }
}
