import Dispatch
import Foundation

/// The outcome of an evaluation in the older form (`SecTrustEvaluate`, `SecTrustGetTrustResult`), with Apple's
/// values.
public enum SecTrustResultType: UInt32, Sendable {
    /// Not evaluated yet.
    case invalid = 0
    /// The user chose to trust the chain: here, through exceptions (`SecTrustSetExceptions`) that accept every
    /// failure found.
    case proceed = 1
    @available(*, deprecated)
    case confirm = 2
    /// The user chose not to trust the chain (trust settings, which do not exist here).
    case deny = 3
    /// The chain is trusted, without a user decision: what a successful evaluation gives here.
    case unspecified = 4
    /// A check failed that a user or an app could override (all the failures checked here are of this kind).
    case recoverableTrustFailure = 5
    case fatalTrustFailure = 6
    case otherError = 7
}

/// What `SecTrustEvaluateAsyncWithError` calls with the result.
public typealias SecTrustWithErrorCallback = (SecTrust, Bool, CFError?) -> Void

/// Evaluates trust and gives the result in the older form (deprecated by Apple for `SecTrustEvaluateWithError`).
/// - Parameters:
///   - trust: the object.
///   - result: receives `.unspecified` when the chain is trusted, `.proceed` when it is trusted only through the
///     user's exceptions, else `.recoverableTrustFailure`.
/// - Returns: `errSecSuccess` (the evaluation itself ran).
@available(*, deprecated, renamed: "SecTrustEvaluateWithError")
public func SecTrustEvaluate(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    result.pointee = trust.evaluation().resultType
    return errSecSuccess
}

/// The result of the last evaluation.
/// - Parameters:
///   - trust: the object.
///   - result: receives `.invalid` when the object has not been evaluated since its last change, else as
///     `SecTrustEvaluate` gives it.
/// - Returns: `errSecSuccess`.
public func SecTrustGetTrustResult(
    _ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>
) -> OSStatus {
    guard let evaluation = trust.state.withLock({ $0.evaluation }) else {
        result.pointee = .invalid
        return errSecSuccess
    }
    result.pointee = evaluation.resultType
    return errSecSuccess
}

/// Evaluates trust away from the calling thread and calls `result` on `queue`.
/// - Parameters:
///   - trust: the object.
///   - queue: the queue `result` runs on.
///   - result: receives the object, whether it is trusted, and the error as `SecTrustEvaluateWithError` gives it.
/// - Returns: `errSecSuccess`.
public func SecTrustEvaluateAsyncWithError(
    _ trust: SecTrust, _ queue: DispatchQueue, _ result: @escaping SecTrustWithErrorCallback
) -> OSStatus {
    // Apple's callback type is not @Sendable; it is called once, on the caller's queue, as Apple does.
    nonisolated(unsafe) let callback = result
    DispatchQueue.global().async {
        let error = trust.evaluation().error
        queue.async { callback(trust, error == nil, error) }
    }
    return errSecSuccess
}

extension TrustEvaluation {
    /// The older form's result: trusted by the user's exceptions, trusted, a failure an app could override, or a
    /// fatal one.
    var resultType: SecTrustResultType {
        if failures.contains(where: \.check.isFatal) { return .fatalTrustFailure }
        guard error == nil else { return .recoverableTrustFailure }
        return passedByExceptions ? .proceed : .unspecified
    }
}
