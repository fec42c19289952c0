import Foundation
import KeychainCore
import Synchronization

/// An authentication context over the keychain's authenticators: the keychain passcode is the device passcode,
/// a simulated sensor (`security biometry …`, or `Keychain.authenticators` in tests) is the biometry, as
/// the iOS Simulator offers, and a simulated companion (`security companion …`) is the paired watch. The keychain is the one the SecItem functions use (the task's, else the process's,
/// from `KEYCHAIN_HOME`), resolved when the context is made; without one, nothing can be evaluated.
open class LAContext: NSObject, @unchecked Sendable {  // safe: mutable state lives in a Mutex or in `core`
    private struct Settings {
        var localizedReason = ""
        var localizedFallbackTitle: String?
        var localizedCancelTitle: String?
        var biometryType = LABiometryType.none
    }

    private let settings = Mutex(Settings())
    private let core = AuthenticationContext()
    private let keychain: Keychain?

    public override init() {
        keychain = try? ProcessKeychain.current()
        super.init()
    }

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
        get { core.reuseDuration }
        set { core.reuseDuration = newValue }
    }

    /// When true, an evaluation that would need user interaction fails with `.notInteractive`.
    open var interactionNotAllowed: Bool {
        get { core.interactionNotAllowed }
        set { core.interactionNotAllowed = newValue }
    }

    /// The biometry available, set by `canEvaluatePolicy` and `evaluatePolicy`: `.touchID` for the simulated
    /// sensor (present whether or not anything is enrolled) or the machine's fingerprint reader, `.none` without
    /// a keychain or when the configured reader is not there.
    open var biometryType: LABiometryType { settings.withLock { $0.biometryType } }

    /// Identifies the enrolled biometry as of the last check or evaluation (it changes when enrollment
    /// changes); nil when nothing is enrolled.
    open var evaluatedPolicyDomainState: Data? { core.evaluatedDomainState.map { Data($0) } }

    /// Whether `policy` can be evaluated now.
    /// - Parameters:
    ///   - policy: the policy.
    ///   - error: receives the reason when it cannot.
    /// - Returns: whether it can; biometric policies need an enrolled sensor that is not locked out, and every
    ///   policy needs a keychain passcode (`.passcodeNotSet`), as on a device.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: UnsafeMutablePointer<NSError?>?) -> Bool {
        do {
            guard let keychain else { throw unavailability(of: policy) }
            noteBiometry(keychain)
            try keychain.authenticators.canEvaluate(policy.engine, context: core)
            return true
        } catch let failure {
            error?.pointee = Self.laError(failure) as NSError
            return false
        }
    }

    /// Asks the user to authenticate; `reply` runs on a background queue with the outcome.
    /// - Parameters:
    ///   - policy: the policy.
    ///   - localizedReason: why the app asks.
    ///   - reply: receives success, or the error.
    open func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        DispatchQueue.global().async {
            do {
                reply(try self.evaluate(policy, reason: localizedReason), nil)
            } catch {
                reply(false, error)
            }
        }
    }

    /// Asks the user to authenticate.
    /// - Returns: true on success.
    /// - Throws: an `LAError` describing why not.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        try evaluate(policy, reason: localizedReason)
    }

    /// Ends the context: its authentications are forgotten and later evaluations fail with `.invalidContext`.
    open func invalidate() {
        core.invalidate()
    }

    /// Sets the application password that items protected with `.applicationPassword` are opened with.
    /// - Parameters:
    ///   - credential: the password's bytes (UTF-8 for a string); nil clears it.
    ///   - type: `.applicationPassword`.
    /// - Returns: true.
    @discardableResult
    open func setCredential(_ credential: Data?, type: LACredentialType) -> Bool {
        core.setApplicationPassword(credential.map { Array($0) })
        return true
    }

    /// Whether an application password is set.
    /// - Returns: true after `setCredential` with a non-nil credential.
    open func isCredentialSet(_ type: LACredentialType) -> Bool {
        core.hasApplicationPassword
    }

    private func evaluate(_ policy: LAPolicy, reason: String) throws -> Bool {
        do {
            guard let keychain else { throw unavailability(of: policy) }
            noteBiometry(keychain)
            try keychain.authenticators.evaluate(policy.engine, context: core, reason: reason)
            return true
        } catch {
            throw Self.laError(error)
        }
    }

    /// `.touchID` when the keychain has a sensor (the simulated one, or a fingerprint reader that fprintd
    /// reports), else `.none`.
    private func noteBiometry(_ keychain: Keychain) {
        let available = (try? keychain.authenticators.sensorStatus().isAvailable) ?? false
        settings.withLock { $0.biometryType = available ? .touchID : .none }
    }

    private static func laError(_ error: any Error) -> LAError {
        if let error = error as? LAError { return error }
        if let failure = error as? AuthenticationFailure { return LAError(LAError.Code(rawValue: failure.code)) }
        return LAError(.biometryNotAvailable, userInfo: [NSLocalizedDescriptionKey: "\(error)"])
    }

    private func unavailability(of policy: LAPolicy) -> LAError {
        if core.isInvalidated { return LAError(.invalidContext) }
        switch policy {
        case .deviceOwnerAuthentication: return LAError(.passcodeNotSet)
        case .deviceOwnerAuthenticationWithWatch, .deviceOwnerAuthenticationWithWristDetection:
            return LAError(.watchNotAvailable)
        case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithBiometricsOrWatch:
            return LAError(.biometryNotAvailable)
        }
    }
}

extension LAContext: AuthenticationContextCarrier {
    package var authenticationContext: AuthenticationContext { core }
}
