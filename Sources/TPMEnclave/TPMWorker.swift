import Dispatch
import Foundation
import Synchronization

/// Runs one ESAPI connection's calls on a thread of its own, which makes, uses and releases the connection's
/// `Context`, so that a caller can stop waiting: ESAPI's synchronous calls wait for the TPM forever.
///
/// A caller waits at most its timeout for its call to start and at most its timeout for it to finish. A call still
/// running after its timeout gives the worker up: every caller waiting on it gets ``TPMError/timedOut(tcti:seconds:)``
/// at once and no call runs on it again. The thread stays where it is; if the call ever returns, the thread releases
/// the context itself, so nothing frees it under a call still running. A call whose failure leaves the context
/// unusable (``TPMError/endsConnection``: the transport broke) gives the worker up too: its caller gets that
/// failure, the calls queued behind it ``TPMError/connectionLost(tcti:operation:code:)``, and the thread releases the
/// context at once.
final class TPMWorker<Context>: Sendable {
    let tcti: String
    private let queue = Mutex(Queue())
    /// Signaled once for each call queued, and when the worker is given up or closed.
    private let wakeup = DispatchSemaphore(value: 0)
    /// Signaled by the thread once it has released the context.
    private let ended = DispatchSemaphore(value: 0)
    /// The answer of `open`.
    private let opened = TPMAnswer<Void>()

    private struct Queue {
        var pending: [Job] = []
        /// The call the thread runs now, and since when.
        var running: (job: Job, since: DispatchTime)?
        /// Why the worker was given up.
        var givenUp: TPMError?
        /// The owner let go: the thread ends once no call is pending.
        var closing = false
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

    /// Starts the thread, which makes the context with `open` (``waitUntilOpen(within:)`` waits for it).
    init(tcti: String, open: @escaping @Sendable () throws(TPMError) -> Context) {
        self.tcti = tcti
        let thread = Thread { [self] in
            serve(open)
            ended.signal()
        }
        thread.name = "TPM worker"
        thread.start()
    }

    /// Waits at most `seconds` for the context.
    /// - Throws: `open`'s error (the thread has ended), or ``TPMError/timedOut(tcti:seconds:)`` (the worker is given
    ///   up).
    func waitUntilOpen(within seconds: Double) throws(TPMError) {
        if let result = opened.wait(until: .now() + seconds) ?? opened.leave() {
            try result.get()
            return
        }
        let timedOut = TPMError.timedOut(tcti: tcti, seconds: seconds)
        queue.withLock { $0.givenUp = timedOut }
        throw timedOut
    }

    /// Whether a call ran past its timeout: the owner makes a new worker.
    var isGivenUp: Bool { queue.withLock { $0.givenUp != nil } }

    /// Runs `body` with the context on the thread and returns its result. A result no caller takes any more is
    /// dropped: a secret crosses in a ``TPMSecretCopy``, which zeroes itself when released.
    /// - Throws: `body`'s error, or ``TPMError/timedOut(tcti:seconds:)``.
    func run<R: Sendable>(
        within seconds: Double, _ body: @escaping @Sendable (Context) throws(TPMError) -> R
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
        var deadline = DispatchTime.now() + seconds
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
        queue.givenUp = timedOut
        defer { queue.pending = [] }
        return .givenUp(queue.pending + [job])
    }

    /// Ends the thread once no call is pending, and waits at most `seconds` for it to release the context. A worker
    /// given up is left alone.
    func close(within seconds: Double) {
        let givenUp = queue.withLock { queue in
            queue.closing = true
            return queue.givenUp != nil
        }
        wakeup.signal()
        if !givenUp { _ = ended.wait(timeout: .now() + seconds) }
    }

    /// The thread: makes the context, runs the calls, and releases the context when it returns.
    private func serve(_ open: () throws(TPMError) -> Context) {
        let context: Context
        do {
            context = try open()
        } catch {
            opened.give(.failure(error))
            return
        }
        // When the opener stopped waiting, nobody will use the context.
        guard opened.give(.success(())) else { return }
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

/// A copy of secret bytes crossing to or from the worker thread (an auth value, a digest, a peer point; a shared
/// secret). Neither side's array is shared with the other, whose hold may outlast the wait, so each side's own wipe
/// stays in place; the copy is zeroed when its last holder lets go. Immutable after `init` (hence Sendable), read on the thread only.
final class TPMSecretCopy: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer

    init(_ source: [UInt8]) {
        storage = .allocate(byteCount: source.count, alignment: 1)
        source.withUnsafeBytes { storage.copyMemory(from: $0) }
    }

    /// `significant` left-padded with zeros to `length` bytes (an ECC coordinate as big-endian bytes of a fixed
    /// size), copied from the TPM's answer without an array in between.
    init(leftPadding significant: UnsafeRawBufferPointer, to length: Int) {
        storage = .allocate(byteCount: length, alignment: 1)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        let count = min(significant.count, length)
        UnsafeMutableRawBufferPointer(rebasing: storage[(length - count)...]).copyMemory(
            from: UnsafeRawBufferPointer(rebasing: significant.prefix(count)))
    }

    deinit {
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        storage.deallocate()
    }

    var count: Int { storage.count }

    /// A new array of the bytes, for a caller that then owns the only copy (and wipes it).
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(storage)) }

    /// Copies the bytes to the start of `buffer` (a TPM2B's buffer, which the caller checked is large enough).
    func copy<Buffer>(into buffer: inout Buffer) {
        withUnsafeMutableBytes(of: &buffer) { $0.copyMemory(from: UnsafeRawBufferPointer(storage)) }
    }
}
