import Dispatch
import Synchronization

/// The process's TPM calls given up by a timeout whose worker threads are still in them, per TCTI. Such a thread, and
/// its TCTI's descriptors, stay until the TPM answers: while one does, the TPM is known not to answer, and each new
/// attempt to connect would only leave another thread beside it, so none is made (``refusal(tcti:)``). A process
/// that keeps trying a silent TPM thus holds one thread of it, not one per attempt.
enum TPMStuckCalls {
    /// When each stuck worker was given up, by TCTI and worker.
    private static let stuck = Mutex<[String: [ObjectIdentifier: DispatchTime]]>([:])

    /// Records that `worker`'s thread was given up now while in a call to the TPM at `tcti`.
    static func add(_ worker: ObjectIdentifier, tcti: String) {
        stuck.withLock { $0[tcti, default: [:]][worker] = .now() }
    }

    /// Records that `worker`'s thread has left its call (and released its contexts).
    static func remove(_ worker: ObjectIdentifier, tcti: String) {
        stuck.withLock { stuck in
            stuck[tcti]?[worker] = nil
            if stuck[tcti]?.isEmpty == true { stuck[tcti] = nil }
        }
    }

    /// At most this many threads per TPM wait in calls given up: past it, no new connection is tried at all.
    static let mostStuck = 4

    /// Why no new connection to `tcti` is made now, or nil. A call given up still waits for the TPM: a new
    /// connection is tried only once the latest was given up `probeAfter` seconds ago or more (a network TPM can
    /// leave a call waiting forever on a peer that vanished, and answer again later), and never while `mostStuck`
    /// threads wait.
    static func refusal(tcti: String, probeAfter seconds: Double) -> TPMError? {
        guard let given = stuck.withLock({ $0[tcti].map { Array($0.values) } }), let oldest = given.min(),
            let latest = given.max()
        else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        let sinceLatest = Double(now - latest.uptimeNanoseconds) / 1e9
        guard given.count >= mostStuck || sinceLatest < seconds else { return nil }
        return .stillUnanswered(tcti: tcti, secondsAgo: Int((now - oldest.uptimeNanoseconds) / 1_000_000_000))
    }
}
