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

    /// Why no new connection to `tcti` is made now: a call given up (the oldest) still waits for the TPM; nil when
    /// none does.
    static func refusal(tcti: String) -> TPMError? {
        guard let since = stuck.withLock({ $0[tcti]?.values.min() }) else { return nil }
        let seconds = (DispatchTime.now().uptimeNanoseconds - since.uptimeNanoseconds) / 1_000_000_000
        return .stillUnanswered(tcti: tcti, secondsAgo: Int(seconds))
    }
}
