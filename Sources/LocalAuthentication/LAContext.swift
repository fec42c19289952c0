import Foundation
import KeychainCore
import KeychainCrypto
import KeychainRequests
import Security
import Synchronization

/// An authentication context over the keychain's authenticators: the keychain passcode is the device passcode,
/// a simulated sensor (`security biometry …`, or `Keychain.authenticators` in tests) is the biometry, as
/// the iOS Simulator offers, and a simulated companion (`security companion …`) is the paired watch. The keychain is the one the SecItem functions use (the task's, else the process's,
/// from `KEYCHAIN_HOME`), resolved when the context is made; without one, nothing can be evaluated.
///
/// The context itself lives beside the keychain, in its registry; this object holds its id and sends requests
/// naming it, so the same code works against a keychain in another process.
open class LAContext: NSObject, @unchecked Sendable {  // safe: mutable state lives in a Mutex or the registry
    private struct Settings {
        var localizedReason = ""
        var localizedFallbackTitle: String?
        var localizedCancelTitle: String?
        var biometryType = LABiometryType.none
        var maxBiometryFailures: NSNumber?
    }

    private let settings = Mutex(Settings())
    /// The service and the context's id in it; nil when there is no keychain.
    private let binding: KeychainClient?
    /// Stands in for the context when there is no keychain: settings still read back; nothing evaluates.
    private let detached = AuthenticationContext()

    public override init() {
        binding = Self.bind()
        super.init()
    }

    deinit {
        // The registry forgets the context with the object, as a device forgets an LAContext's grants.
        if let binding { _ = try? binding.service.perform(.forgetAuthenticationContext, as: binding.caller) }
    }

    /// A new context in the current keychain's registry, and the client that names it.
    private static func bind() -> KeychainClient? {
        guard let service = try? ProcessKeychainService.current(),
            case .authenticationContext(let id)? = try? service.perform(
                .createAuthenticationContext, as: service.caller())
        else { return nil }
        return KeychainClient(service: service, caller: service.caller(context: id))
    }

    /// The context's state as the registry holds it.
    private var state: AuthenticationContextState {
        if let binding,
            case .authenticationContextState(let state)? = try? binding.service.perform(
                .authenticationContextState, as: binding.caller)
        {
            return state
        }
        return AuthenticationContextState(
            reuseDuration: detached.reuseDuration, interactionNotAllowed: detached.interactionNotAllowed,
            isInvalidated: detached.isInvalidated, hasApplicationPassword: detached.hasApplicationPassword,
            evaluatedDomainState: detached.evaluatedDomainState)
    }

    /// Sends a request about the context; without a keychain, applies it to the stand-in. Whether it was done.
    @discardableResult
    private func send(_ request: KeychainRequest, detached apply: (AuthenticationContext) -> Void) -> Bool {
        if let binding {
            return (try? binding.service.perform(request, as: binding.caller)) != nil
        } else {
            apply(detached)
            return true
        }
    }

    /// The reason shown to the user when the keychain asks for authentication on this context's behalf: a
    /// keychain call passing the context as `kSecUseAuthenticationContext` without a `kSecUseOperationPrompt`
    /// (which wins when given) shows it, so the keychain, in this process or keychaind, keeps it with the context.
    open var localizedReason: String {
        get { settings.withLock { $0.localizedReason } }
        set {
            settings.withLock { $0.localizedReason = newValue }
            // A keychaind older than protocol 5, or a reason over 4,096 bytes, keeps none: its prompts say who asks.
            send(.setLocalizedReason(newValue)) { $0.localizedReason = newValue }
        }
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
        get { state.reuseDuration }
        set {
            send(.configureAuthenticationContext(AuthenticationContextSettings(reuseDuration: newValue))) {
                $0.reuseDuration = newValue
            }
        }
    }

    /// When true, an evaluation that would need user interaction fails with `.notInteractive`.
    open var interactionNotAllowed: Bool {
        get { state.interactionNotAllowed }
        set {
            send(.configureAuthenticationContext(AuthenticationContextSettings(interactionNotAllowed: newValue))) {
                $0.interactionNotAllowed = newValue
            }
        }
    }

    /// The biometry available, set by `canEvaluatePolicy` and `evaluatePolicy`: `.touchID` for the simulated
    /// sensor (present whether or not anything is enrolled) or the machine's fingerprint reader, `.none` without
    /// a keychain or when the configured reader is not there.
    open var biometryType: LABiometryType { settings.withLock { $0.biometryType } }

    /// Identifies the enrolled biometry as of the last check or evaluation (it changes when enrollment
    /// changes); nil when nothing is enrolled.
    open var evaluatedPolicyDomainState: Data? { state.evaluatedDomainState.map { Data($0) } }

    /// The state of the authentication domains now (iOS 18): the sensor's enrolled set and the paired
    /// companion. Without a keychain, no biometry and no companion.
    open var domainState: LADomainState {
        let sensor = binding.flatMap { try? $0.biometryStatus() }
        let paired = binding.flatMap { try? $0.simulatedCompanion(.status).isPaired } ?? false
        let biometry = LADomainStateBiometry(
            biometryType: sensor?.isAvailable == true ? .touchID : .none,
            stateHash: sensor?.domainState.map { Data($0) })
        let companion = LADomainStateCompanion(
            hashes: paired ? [.watch: LADomainStateCompanion.simulatedWatchHash] : [:])
        return LADomainState(biometry: biometry, companion: companion)
    }

    /// Whether `policy` can be evaluated now.
    /// - Parameters:
    ///   - policy: the policy.
    ///   - error: receives the reason when it cannot.
    /// - Returns: whether it can; biometric policies need an enrolled sensor that is not locked out, and every
    ///   policy needs a keychain passcode (`.passcodeNotSet`), as on a device.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: UnsafeMutablePointer<NSError?>?) -> Bool {
        do {
            guard let binding else { throw unavailability(of: policy) }
            noteBiometry(binding)
            _ = try binding.service.perform(.canEvaluatePolicy(policy.engine), as: binding.caller)
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

    /// Asks the user to authenticate. The prompt blocks until the user answers, so it runs on a queue of its
    /// own, never on a thread of Swift's cooperative pool.
    /// - Returns: true on success.
    /// - Throws: an `LAError` describing why not.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            Self.promptQueue.async {
                continuation.resume(with: Result { try self.evaluate(policy, reason: localizedReason) })
            }
        }
    }

    /// Asks the user for what `accessControl` needs for `operation`, so that items and keys under it then open
    /// with this context (passed as `kSecUseAuthenticationContext`) without a prompt of their own. Creating an
    /// item or a key needs no authentication, nor does an access control without constraints: both succeed at
    /// once. `reply` runs on a background queue.
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl, operation: LAAccessControlOperation, localizedReason: String,
        reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        Self.promptQueue.async {
            do {
                reply(try self.evaluate(accessControl, operation, reason: localizedReason), nil)
            } catch {
                reply(false, error)
            }
        }
    }

    /// Asks the user for what `accessControl` needs for `operation` (see the callback form).
    /// - Returns: true on success.
    /// - Throws: an `LAError`: how the prompt ended, or `.authenticationFailed` when no prompt can satisfy the
    ///   access control (an application password that `setCredential` has not set).
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl, operation: LAAccessControlOperation, localizedReason: String
    ) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            Self.promptQueue.async {
                continuation.resume(
                    with: Result { try self.evaluate(accessControl, operation, reason: localizedReason) })
            }
        }
    }

    /// Where blocking prompts of the async API wait: a concurrent queue outside the cooperative pool.
    package static let promptQueue = DispatchQueue(label: "LAContext.evaluatePolicy", attributes: .concurrent)

    /// Ends the context: its authentications are forgotten and later evaluations fail with `.invalidContext`.
    open func invalidate() {
        send(.invalidateAuthenticationContext) { $0.invalidate() }
    }

    /// Sets the application password that items protected with `.applicationPassword` are opened with.
    /// - Parameters:
    ///   - credential: the password's bytes (UTF-8 for a string); nil clears it.
    ///   - type: `.applicationPassword`.
    /// - Returns: whether the credential was set: false for another type, for a password over 4,096 bytes, and
    ///   when the keychain refused it (the context keeps no password then, not an earlier one).
    @discardableResult
    open func setCredential(_ credential: Data?, type: LACredentialType) -> Bool {
        guard type == .applicationPassword else { return false }  // no smart card takes a PIN here
        if let credential, credential.count > InProcessKeychainService.largestApplicationPassword {
            send(.setApplicationPassword(nil)) { $0.setApplicationPassword(Secret?.none) }
            return false
        }
        // Straight into wiped-on-free memory: no plain array of the password is left behind.
        let password = credential.map { Secret(SecureBytes($0)) }
        return send(.setApplicationPassword(password)) { $0.setApplicationPassword(password) }
    }

    /// Whether an application password is set.
    /// - Returns: true after `setCredential` with a non-nil credential; false for a smart card PIN.
    open func isCredentialSet(_ type: LACredentialType) -> Bool {
        type == .applicationPassword && state.hasApplicationPassword
    }

    /// Deprecated by Apple, and setting it has no effect there either.
    @available(*, deprecated, message: "No longer supported")
    open var maxBiometryFailures: NSNumber? {
        get { settings.withLock { $0.maxBiometryFailures } }
        set { settings.withLock { $0.maxBiometryFailures = newValue } }
    }

    /// Evaluates `policy` on this thread (the prompt blocks it). - Throws: an `LAError`.
    func evaluate(_ policy: LAPolicy, reason: String) throws -> Bool {
        try evaluate(.evaluatePolicy(policy.engine, reason: reason), unavailable: unavailability(of: policy))
    }

    private func evaluate(_ accessControl: SecAccessControl, _ operation: LAAccessControlOperation, reason: String)
        throws -> Bool
    {
        try evaluate(
            .evaluateAccessControl(accessControl.policy, operation: operation.engine, reason: reason),
            unavailable: state.isInvalidated ? LAError(.invalidContext) : LAError(.passcodeNotSet))
    }

    /// Sends an evaluation on this thread; without a keychain, fails with `unavailable`.
    private func evaluate(_ request: KeychainRequest, unavailable: @autoclosure () -> LAError) throws -> Bool {
        do {
            guard let binding else { throw unavailable() }
            noteBiometry(binding)
            _ = try binding.service.perform(request, as: binding.caller)
            return true
        } catch {
            throw Self.laError(error)
        }
    }

    /// `.touchID` when the keychain has a sensor (the simulated one, or a fingerprint reader that fprintd
    /// reports), else `.none`.
    private func noteBiometry(_ binding: KeychainClient) {
        let available = (try? binding.biometryStatus().isAvailable) ?? false
        settings.withLock { $0.biometryType = available ? .touchID : .none }
    }

    private static func laError(_ error: any Error) -> LAError {
        if let error = error as? LAError { return error }
        if let failure = error as? AuthenticationFailure {
            return LAError(LAError.Code(rawValue: failure.code) ?? .authenticationFailed)
        }
        return LAError(.biometryNotAvailable, userInfo: [NSLocalizedDescriptionKey: "\(error)"])
    }

    private func unavailability(of policy: LAPolicy) -> LAError {
        if state.isInvalidated { return LAError(.invalidContext) }
        switch policy {
        case .deviceOwnerAuthentication: return LAError(.passcodeNotSet)
        case .deviceOwnerAuthenticationWithWatch, .deviceOwnerAuthenticationWithWristDetection:
            return LAError(.companionNotAvailable)
        case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithBiometricsOrWatch:
            return LAError(.biometryNotAvailable)
        }
    }
}

extension LAContext: AuthenticationContextCarrier {
    package var authenticationContextID: AuthenticationContextID? { binding?.caller.authenticationContext }

    /// The context object, for in-process engine calls (the Secure Enclave keys): resolved in the registry of
    /// the keychain this context was made in; the stand-in when there is none (or it is in another process).
    package var authenticationContext: AuthenticationContext {
        guard let binding, let id = binding.caller.authenticationContext,
            let service = binding.service as? InProcessKeychainService,
            let context = try? service.keychain.authenticationContexts.resolve(id)
        else { return detached }
        return context
    }
}
