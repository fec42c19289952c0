import Foundation

/// The keychain's authenticators: the simulated biometric sensor, the device passcode (the keychain passcode
/// entered at a scripted prompt, or, when the prompt has no script, the system's own authentication through
/// PAM), and the simulated companion (a paired watch). `LAContext` and keychain reads of items with
/// access-control constraints evaluate through here.
public final class Authenticators: Sendable {
    /// The simulated biometric sensor (its state is shared through the keychain home).
    public let biometry: SimulatedBiometry
    /// The simulated device-passcode prompt (its queue belongs to this open keychain).
    public let passcodePrompt: PasscodePrompt
    /// The simulated companion device behind `.watch` (its state is shared through the keychain home).
    public let companion: SimulatedCompanion
    /// Who answers a device-passcode prompt without a script.
    let unscripted: UnscriptedPasscodeAnswer
    /// The machine's fingerprint reader, which replaces the simulated sensor when the configuration has one.
    let fingerprintReader: FingerprintReaderBiometry?
    /// Who asks the user: the configuration's, else ``LocalUserPrompter`` over the devices above.
    let prompter: any UserPrompter
    private let protection: ProtectionState
    private let clock: @Sendable () -> Date

    init(
        protection: ProtectionState, clock: @escaping @Sendable () -> Date, unscripted: UnscriptedPasscodeAnswer,
        fingerprintReader reader: SystemFingerprintReader?, prompter: (any UserPrompter)?
    ) {
        self.protection = protection
        self.clock = clock
        self.unscripted = unscripted
        let simulated = SimulatedBiometry(home: protection.home, deviceKey: protection.deviceKey)
        biometry = simulated
        fingerprintReader = reader.map {
            FingerprintReaderBiometry(
                reader: $0, home: protection.home, deviceKey: protection.deviceKey, simulated: simulated)
        }
        let passcodePrompt = PasscodePrompt()
        let companion = SimulatedCompanion(home: protection.home, deviceKey: protection.deviceKey)
        self.passcodePrompt = passcodePrompt
        self.companion = companion
        self.prompter =
            prompter
            ?? LocalUserPrompter(
                sensor: fingerprintReader ?? simulated, companion: companion, passcodePrompt: passcodePrompt,
                unscripted: unscripted)
    }

    /// The biometric sensor in use: the fingerprint reader when configured, else the simulated sensor.
    var sensor: any BiometricSensor { fingerprintReader ?? biometry }

    /// The prompter that asks in this process, over this keychain's own devices: what a daemon's prompter
    /// falls back on for the checks it runs itself (the sensor, the companion).
    package func localPrompter() -> any UserPrompter {
        LocalUserPrompter(sensor: sensor, companion: companion, passcodePrompt: passcodePrompt, unscripted: unscripted)
    }

    /// Which sensor is in use.
    package var usesFingerprintReader: Bool { fingerprintReader != nil }

    /// The state of the sensor in use.
    public func sensorStatus() throws -> BiometryStatus {
        try sensor.status()
    }

    /// Whether `policy` can be evaluated now; when it can and it is a biometric policy, records the enrolled set
    /// in `context` (Apple: `evaluatedPolicyDomainState` has a value only after such a check succeeded, or a
    /// biometric match).
    /// - Throws: `AuthenticationFailure` saying why not.
    public func canEvaluate(_ policy: AuthenticationPolicy, context: AuthenticationContext) throws {
        // A biometric policy's check tells the enrolled set when it succeeds, and none when it fails; another
        // policy's leaves what an earlier check told.
        guard [.biometrics, .biometricsOrCompanion, .deviceOwner].contains(policy) else {
            return try check(policy, context: context)
        }
        do {
            try check(policy, context: context)
        } catch {
            context.noteDomainState(nil)
            throw error
        }
        context.noteDomainState(try sensor.status().domainState)
    }

    /// ``canEvaluate(_:context:)``'s checks; an evaluation runs them without noting the enrolled set, which only
    /// its biometric match may (one that fails leaves none).
    private func check(_ policy: AuthenticationPolicy, context: AuthenticationContext) throws {
        if context.isInvalidated { throw AuthenticationFailure.invalidContext }
        let sensor = try self.sensor.status()
        let paired = try companion.status().isPaired
        if policy == .companion, !paired { throw AuthenticationFailure.watchNotAvailable }
        // Apple: biometry needs a device passcode; so does every device-owner policy.
        guard try protection.hasPasscode else { throw AuthenticationFailure.passcodeNotSet }
        switch policy {
        case .biometricsOrCompanion where paired: break
        case .biometrics, .biometricsOrCompanion:
            guard sensor.isAvailable else { throw AuthenticationFailure.biometryNotAvailable }
            guard sensor.isEnrolled else { throw AuthenticationFailure.biometryNotEnrolled }
            guard !sensor.isLockedOut else { throw AuthenticationFailure.biometryLockout }
        case .deviceOwner, .devicePasscode, .companion: break
        }
    }

    /// Asks the user to authenticate for `policy` and records the success in `context`.
    /// - Parameter reason: why the app asks (`localizedReason`, `kSecUseOperationPrompt`), shown by system prompts.
    /// - Returns: how the user authenticated.
    /// - Throws: `AuthenticationFailure`; `.appCancel` when the context was invalidated while the user was asked
    ///   (Apple: invalidating a context cancels its pending evaluations), whatever the user answered.
    @discardableResult
    public func evaluate(_ policy: AuthenticationPolicy, context: AuthenticationContext, reason: String = "") throws
        -> AuthenticationMethod
    {
        do {
            return try prompt(policy, context: context, reason: reason)
        } catch let failure as AuthenticationFailure where failure != .invalidContext && context.isInvalidated {
            throw AuthenticationFailure.appCancel
        }
    }

    private func prompt(_ policy: AuthenticationPolicy, context: AuthenticationContext, reason: String) throws
        -> AuthenticationMethod
    {
        if policy == .deviceOwner || policy == .devicePasscode {
            try check(.devicePasscode, context: context)
        } else {
            try check(policy, context: context)
        }
        if context.interactionNotAllowed { throw AuthenticationFailure.notInteractive }
        switch policy {
        case .biometricsOrCompanion:
            // Both ask at once; a usable sensor that meets a user answers first, else the companion does.
            let status = try sensor.status()
            let sensorAnswers = status.isEnrolled && !status.isLockedOut && status.answersPrompts
            if !sensorAnswers, try companion.status().isPaired {
                _ = try prompter.ask(.companion)
                return try record(.companion, in: context)
            }
            _ = try prompter.ask(.biometry(reason: reason))
        case .biometrics:
            _ = try prompter.ask(.biometry(reason: reason))
        case .deviceOwner:
            let status = try sensor.status()
            if status.isAvailable && status.isEnrolled && !status.isLockedOut {
                do {
                    _ = try prompter.ask(.biometry(reason: reason))
                    return try record(.biometry, in: context)
                } catch AuthenticationFailure.authenticationFailed, AuthenticationFailure.userFallback {
                    // The prompt offers the passcode after a failed match or on "Enter Password", unless the app
                    // has invalidated the context meanwhile.
                    if context.isInvalidated { throw AuthenticationFailure.appCancel }
                }
            }
            try enterPasscode(reason: reason)
            return try record(.devicePasscode, in: context)
        case .devicePasscode:
            try enterPasscode(reason: reason)
            return try record(.devicePasscode, in: context)
        case .companion:
            _ = try prompter.ask(.companion)
            return try record(.companion, in: context)
        }
        return try record(.biometry, in: context)
    }

    /// Whether `context` holds a reusable authentication by `method`.
    func holds(_ method: AuthenticationMethod, in context: AuthenticationContext) throws -> Bool {
        let state = method == .biometry ? try sensor.keys().domainState : nil
        return context.holds(method, now: clock(), domainState: state)
    }

    private func record(_ method: AuthenticationMethod, in context: AuthenticationContext) throws
        -> AuthenticationMethod
    {
        // Invalidated while the user was asked: the success is not the app's any more.
        if context.isInvalidated { throw AuthenticationFailure.appCancel }
        let state = try sensor.keys().domainState
        // Only a biometric match tells the enrolled set (a passcode or a companion says nothing of it).
        if method == .biometry { context.noteDomainState(state) }
        context.record(method, at: clock(), domainState: method == .biometry ? state : nil)
        return method
    }

    /// The device-passcode prompt, through the prompter: a passcode the user typed is verified here; the
    /// system's owner authentication answers for itself.
    private func enterPasscode(reason: String) throws {
        switch try prompter.ask(.devicePasscode(reason: reason)) {
        case .passcode(let passcode, let attempter):
            do { try protection.verifyPasscode(passcode.secure, attempter: attempter) } catch KeychainError.authFailed {
                throw AuthenticationFailure.authenticationFailed
            }
        case .confirmed: break
        }
        try sensor.resetFailures()
    }
}
