import Foundation
import Synchronization

/// An authentication context. This machine has no biometric sensor and, until the keychain passcode is
/// wired in, no device passcode: `canEvaluatePolicy` answers false with `.biometryNotAvailable` or
/// `.passcodeNotSet`, and evaluations fail with the same error, as on a device without them.
open class LAContext: NSObject, @unchecked Sendable {  // safe: mutable state lives in a Mutex
    private struct Settings {
        var localizedReason = ""
        var localizedFallbackTitle: String?
        var localizedCancelTitle: String?
        var reuseDuration: Double = 0
        var interactionNotAllowed = false
        var invalidated = false
    }

    private let settings = Mutex(Settings())

    public override init() { super.init() }

    /// The reason shown to the user when the keychain asks for authentication on this context's behalf.
    open var localizedReason: String {
        get { settings.withLock { $0.localizedReason } }
        set { settings.withLock { $0.localizedReason = newValue } }
    }

    /// The title of the fallback button (nil: the default; empty: hidden).
    open var localizedFallbackTitle: String? {
        get { settings.withLock { $0.localizedFallbackTitle } }
        set { settings.withLock { $0.localizedFallbackTitle = newValue } }
    }

    /// The title of the cancel button.
    open var localizedCancelTitle: String? {
        get { settings.withLock { $0.localizedCancelTitle } }
        set { settings.withLock { $0.localizedCancelTitle = newValue } }
    }

    /// How long, in seconds, a successful biometric match may be reused; capped at five minutes.
    open var touchIDAuthenticationAllowableReuseDuration: Double {
        get { settings.withLock { $0.reuseDuration } }
        set {
            settings.withLock {
                $0.reuseDuration = Swift.min(Swift.max(newValue, 0), LATouchIDAuthenticationMaximumAllowableReuseDuration)
            }
        }
    }

    /// When true, an evaluation that would need user interaction fails with `.notInteractive`.
    open var interactionNotAllowed: Bool {
        get { settings.withLock { $0.interactionNotAllowed } }
        set { settings.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// The biometry available; set by `canEvaluatePolicy`. This machine has none.
    open var biometryType: LABiometryType { .none }

    /// Identifies the enrolled biometry; nil when there is none.
    open var evaluatedPolicyDomainState: Data? { nil }

    /// Whether `policy` can be evaluated now.
    /// - Parameters:
    ///   - policy: the policy.
    ///   - error: receives the reason when it cannot.
    /// - Returns: false on this machine, with `.biometryNotAvailable` for biometric policies and
    ///   `.passcodeNotSet` for the passcode policy.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: UnsafeMutablePointer<NSError?>?) -> Bool {
        error?.pointee = unavailability(of: policy) as NSError
        return false
    }

    /// Asks the user to authenticate; `reply` runs on a background queue with the outcome.
    /// - Parameters:
    ///   - policy: the policy.
    ///   - localizedReason: why the app asks.
    ///   - reply: receives success, or the error.
    open func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let failure = unavailability(of: policy)
        DispatchQueue.global().async { reply(false, failure) }
    }

    /// Asks the user to authenticate.
    /// - Returns: true on success.
    /// - Throws: an `LAError` describing why not.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        throw unavailability(of: policy)
    }

    /// Ends the context: later evaluations fail with `.invalidContext`.
    open func invalidate() {
        settings.withLock { $0.invalidated = true }
    }

    private func unavailability(of policy: LAPolicy) -> LAError {
        if settings.withLock({ $0.invalidated }) { return LAError(.invalidContext) }
        switch policy {
        case .deviceOwnerAuthentication: return LAError(.passcodeNotSet)
        case .deviceOwnerAuthenticationWithWatch, .deviceOwnerAuthenticationWithWristDetection:
            return LAError(.watchNotAvailable)
        case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithBiometricsOrWatch:
            return LAError(.biometryNotAvailable)
        }
    }
}
