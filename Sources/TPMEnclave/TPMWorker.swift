import Dispatch
import Foundation
import Synchronization

/// Runs one ESAPI connection's calls on a thread of its own, which makes, uses and releases the connection's
/// `Context`, so that a caller can stop waiting: ESAPI's synchronous calls wait for the TPM forever.
///
/// Making the context has its own deadline, which any number of callers may wait for, each until its own deadline
/// at most; an attempt still making it at its deadline is given up. A caller waits for its call to start until its
/// deadline (its timeout, by default) and at most its timeout for it to finish. A call still running after its
/// timeout gives the worker up: every caller waiting on it gets ``TPMError/timedOut(tcti:seconds:)`` at once and no
/// call runs on it again. The thread stays where it is, recorded in ``TPMStuckCalls`` until it leaves the call; if
/// the call ever returns, the thread releases the context itself, so nothing frees it under a call still running. A
/// call whose failure leaves the context unusable (``TPMError/endsConnection``: the transport broke) gives the worker
/// up too: its caller gets that failure, the calls queued behind it ``TPMError/connectionLost(tcti:operation:code:)``,
/// and the thread releases the context at once.
final class TPMWorker<Context>: Sendable {
    let tcti: String
    /// How long the thread may take to make the context, and until when.
    private let openSeconds: Double
    private let openBy: DispatchTime
    private let queue = Mutex(Queue())
    /// Signaled once for each call queued, and when the worker is given up or closed.
    private let wakeup = DispatchSemaphore(value: 0)
    /// Signaled by the thread once it has released the context.
    private let ended = DispatchSemaphore(value: 0)
    /// Left once `open` returned and its outcome is settled; every caller waiting for the context waits on it.
    private let opening = DispatchGroup()

    private struct Queue {
        var pending: [Job] = []
        /// The call the thread runs now, and since when.
        var running: (job: Job, since: DispatchTime)?
        /// Why the worker was given up.
        var givenUp: TPMError?
        /// The owner let go: the thread ends once no call is pending.
        var closing = false
        /// Whether the context was made (then calls may run), or why not; nil while it is being made.
        var opened: Result<Void, TPMError>?
        /// A timeout gave the worker up while its thread was in a call to the TPM: recorded in ``TPMStuckCalls``.
        var isStuck = false
        /// The thread released the context and ended.
        var hasEnded = false
    }

    /// A call, as the thread runs it or as a caller that gives the worker up fails it.
    private final class Job: Sendable {
        let run: @Sendable (Context) -> Outcome
        let fail: @Sendable (TPMError) -> Void

        init(run: @escaping @Sendable (Context) -> Outcome, fail: @escaping @Sendable (TPMError) -> Void) {
            self.run = run
            self.fail = fail
        }
    }

    /// A call's result, not yet given to its caller: the thread first settles what it means for the worker.
    private struct Outcome {
        /// Why the context can no longer be used (the call broke the connection), as the queued calls see it.
        let ending: TPMError?
        /// Gives the result to the caller.
        let deliver: () -> Void
        /// Gives the caller `error` instead, disposing of the result.
        let withhold: (TPMError) -> Void
    }

    /// Starts the thread, which makes the context with `open` within `seconds` from `start`
    /// (``waitUntilOpen(until:seconds:)`` waits for it).
    init(
        tcti: String, openWithin seconds: Double, from start: DispatchTime = .now(),
        open: @escaping @Sendable () throws(TPMError) -> Context
    ) {
        self.tcti = tcti
        openSeconds = seconds
        openBy = start + seconds
        opening.enter()
        let thread = Thread { [self] in
            serve(open)
            queue.withLock { queue in
                queue.hasEnded = true
                if queue.isStuck { TPMStuckCalls.remove(ObjectIdentifier(self), tcti: tcti) }
            }
            ended.signal()
        }
        thread.name = "TPM worker"
        thread.start()
    }

    /// Waits for the context until the attempt's own deadline.
    func waitUntilOpen() throws(TPMError) { try waitUntilOpen(until: openBy, seconds: openSeconds) }

    /// Waits for the context until `deadline`, the end of the caller's timeout of `seconds`, and no longer than the
    /// attempt's own deadline, which gives the worker up. A caller whose deadline comes first leaves the attempt to
    /// go on for the callers after it.
    /// - Throws: `open`'s error (the thread has ended); ``TPMError/timedOut(tcti:seconds:)`` with the attempt's
    ///   seconds once it is given up, or with `seconds` when the caller's deadline passed first.
    func waitUntilOpen(until deadline: DispatchTime, seconds: Double) throws(TPMError) {
        let limit = min(deadline, openBy)
        _ = opening.wait(timeout: limit)
        let outcome = queue.withLock { queue -> Result<Void, TPMError>? in
            giveUpIfOverdue(&queue)
            if let opened = queue.opened { return opened }
            return queue.givenUp.map { .failure($0) }
        }
        guard let outcome else { throw .timedOut(tcti: tcti, seconds: seconds) }
        try outcome.get()
    }

    /// Whether the context has been made, or its making has failed.
    var hasOpened: Bool { queue.withLock { $0.opened != nil } }

    /// Whether the worker failed to open, or was given up (a call ran past its timeout, or making the context
    /// outlasted its deadline: noticed here when no caller waited that long): the owner makes a new worker.
    var isGivenUp: Bool {
        queue.withLock { queue in
            giveUpIfOverdue(&queue)
            return queue.givenUp != nil
        }
    }

    /// Gives the worker up when it is still making its context at the attempt's deadline. Its thread is then in a
    /// call to the TPM, and once it has made the context it flushes it at release, which a TPM gone silent again
    /// would hold it in: either way it is recorded as stuck until it ends.
    private func giveUpIfOverdue(_ queue: inout Queue) {
        guard queue.opened == nil, queue.givenUp == nil, DispatchTime.now() >= openBy else { return }
        giveUp(.timedOut(tcti: tcti, seconds: openSeconds), inCall: true, in: &queue)
    }

    /// Gives the worker up for `error`. `inCall`: by a timeout, its thread in a call to the TPM, which is recorded in
    /// ``TPMStuckCalls`` until the thread ends.
    private func giveUp(_ error: TPMError, inCall: Bool, in queue: inout Queue) {
        queue.givenUp = error
        guard inCall, !queue.hasEnded, !queue.isStuck else { return }
        queue.isStuck = true
        TPMStuckCalls.add(ObjectIdentifier(self), tcti: tcti)
    }

    /// Runs `body` with the context on the thread and returns its result, waiting for the call to start until
    /// `startBy` (default: `seconds` from now) and for it to finish at most `seconds` from its start. A result no
    /// caller takes any more is dropped: a secret crosses in a ``TPMSecretCopy``, which zeroes itself when released.
    /// - Throws: `body`'s error, or ``TPMError/timedOut(tcti:seconds:)``.
    func run<R: Sendable>(
        within seconds: Double, startBy: DispatchTime? = nil,
        _ body: @escaping @Sendable (Context) throws(TPMError) -> R
    ) throws(TPMError) -> R {
        let answer = TPMAnswer<R>()
        let tcti = tcti
        let job = Job(
            run: { context in
                let result = Result { () throws(TPMError) -> R in try body(context) }
                var ending: TPMError? = nil
                if case .failure(let error) = result { ending = error.lostConnection(tcti: tcti) }
                return Outcome(
                    ending: ending, deliver: { answer.give(result) },
                    withhold: { error in answer.give(.failure(error)) })
            },
            fail: { answer.give(.failure($0)) })
        let refusal = queue.withLock { queue -> TPMError? in
            if let givenUp = queue.givenUp { return givenUp }
            queue.pending.append(job)
            return nil
        }
        if let refusal { throw refusal }
        wakeup.signal()
        let timedOut = TPMError.timedOut(tcti: tcti, seconds: seconds)
        var deadline = startBy ?? .now() + seconds
        while true {
            if let result = answer.wait(until: deadline) { return try result.get() }
            switch queue.withLock({ verdict(on: job, timedOut: timedOut, seconds: seconds, in: &$0) }) {
            case .withdrawn:
                throw timedOut
            case .waitUntil(let later):
                deadline = later
            case .givenUp(let jobs):
                for job in jobs { job.fail(timedOut) }
                wakeup.signal()  // the thread ends if its call ever returns
                return try answer.wait(until: .distantFuture)!.get()
            case .answered:
                return try answer.wait(until: .distantFuture)!.get()
            }
        }
    }

    private enum Verdict {
        /// The call had not started: it never will.
        case withdrawn
        /// The call started late: it has its whole timeout from its start.
        case waitUntil(DispatchTime)
        /// The call ran past its timeout: these calls (pending, and this one) fail now.
        case givenUp([Job])
        /// The call has its answer, or is being given one.
        case answered
    }

    /// What a caller whose deadline passed does, under the queue's lock.
    private func verdict(on job: Job, timedOut: TPMError, seconds: Double, in queue: inout Queue) -> Verdict {
        if let index = queue.pending.firstIndex(where: { $0 === job }) {
            queue.pending.remove(at: index)
            return .withdrawn
        }
        guard let running = queue.running, running.job === job else { return .answered }
        let overdue = running.since + seconds
        if overdue > .now() { return .waitUntil(overdue) }
        giveUp(timedOut, inCall: true, in: &queue)
        defer { queue.pending = [] }
        return .givenUp(queue.pending + [job])
    }

    /// Ends the thread once no call is pending, and waits at most `seconds` for it to release the context. A worker
    /// given up is left alone; one whose thread is still in a call after `seconds` (the TPM does not answer a call
    /// or the flushes at release) is given up then.
    func close(within seconds: Double) {
        let givenUp = queue.withLock { queue in
            queue.closing = true
            // Still making its context: nothing to flush, so nothing to wait for; the thread releases what it makes.
            if queue.opened == nil, queue.givenUp == nil {
                giveUp(.timedOut(tcti: tcti, seconds: openSeconds), inCall: true, in: &queue)
            }
            return queue.givenUp != nil
        }
        wakeup.signal()
        guard !givenUp, ended.wait(timeout: .now() + seconds) == .timedOut else { return }
        queue.withLock { giveUp(.timedOut(tcti: tcti, seconds: seconds), inCall: true, in: &$0) }
    }

    /// The thread: makes the context, runs the calls, and releases the context when it returns.
    private func serve(_ open: () throws(TPMError) -> Context) {
        let context: Context
        do {
            context = try open()
        } catch {
            queue.withLock { queue in
                guard queue.givenUp == nil else { return }
                queue.givenUp = error
                queue.opened = .failure(error)
            }
            opening.leave()
            return
        }
        // Made after its deadline, the context goes unused even when no caller noticed: the callers left.
        let usable = queue.withLock { queue -> Bool in
            giveUpIfOverdue(&queue)
            guard queue.givenUp == nil else { return false }
            queue.opened = .success(())
            return true
        }
        opening.leave()
        guard usable else { return }
        while let job = next() {
            let outcome = job.run(context)
            // Settled under the lock before the caller hears anything: a caller that has its answer and calls again
            // finds the worker given up, and a caller whose timeout passed meanwhile either gave the worker up before
            // this (its call then fails with the timeout, whatever the TPM answered) or sees its call answered.
            let settled = queue.withLock { queue -> (givenUp: TPMError?, orphans: [Job]) in
                queue.running = nil
                if let givenUp = queue.givenUp { return (givenUp, []) }
                guard let ending = outcome.ending else { return (nil, []) }
                queue.givenUp = ending
                defer { queue.pending = [] }
                return (nil, queue.pending)
            }
            if let givenUp = settled.givenUp {
                outcome.withhold(givenUp)
                return
            }
            guard let ending = outcome.ending else {
                outcome.deliver()
                continue
            }
            for orphan in settled.orphans { orphan.fail(ending) }
            outcome.deliver()
            return
        }
    }

    private enum Step {
        case run(Job)
        case end
        case idle  // the wakeup of a call withdrawn before it started
    }

    /// The next call to run; nil once the worker was given up or closed.
    private func next() -> Job? {
        while true {
            wakeup.wait()
            let step = queue.withLock { queue -> Step in
                if queue.givenUp != nil { return .end }
                guard !queue.pending.isEmpty else { return queue.closing ? .end : .idle }
                let job = queue.pending.removeFirst()
                queue.running = (job, .now())
                return .run(job)
            }
            switch step {
            case .run(let job): return job
            case .end: return nil
            case .idle: continue
            }
        }
    }
}

/// The answer to one call, given once (the first answer counts) and taken by the caller unless it left.
private final class TPMAnswer<R: Sendable>: Sendable {
    private enum State {
        case waiting
        case given(Result<R, TPMError>)
        case left
    }

    private let state = Mutex(State.waiting)
    private let given = DispatchSemaphore(value: 0)

    /// Gives the answer. False when the caller already has one or left; the result is then dropped.
    @discardableResult
    func give(_ result: Result<R, TPMError>) -> Bool {
        let taken = state.withLock { state in
            guard case .waiting = state else { return false }
            state = .given(result)
            return true
        }
        if taken { given.signal() }
        return taken
    }

    /// The answer once given; nil when none came by `deadline`.
    func wait(until deadline: DispatchTime) -> Result<R, TPMError>? {
        guard given.wait(timeout: deadline) == .success else { return nil }
        return leave()
    }

    /// Leaves: the answer when it came meanwhile; any later one is discarded.
    func leave() -> Result<R, TPMError>? {
        state.withLock { state in
            defer { state = .left }
            guard case .given(let result) = state else { return nil }
            return result
        }
    }
}
