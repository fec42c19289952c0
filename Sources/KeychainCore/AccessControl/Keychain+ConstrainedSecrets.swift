import Foundation
import KeychainCrypto
import Synchronization

/// Items with access-control constraints: their secret is sealed under a key of its own that is kept only
/// wrapped by constraint keys (see ``ConstraintEnvelope``), so the engine itself cannot open it without the
/// biometry secrets, the passcode constraint key or the application password the constraint names. The envelope
/// is in turn sealed under the item key (format 2): a constraint only adds conditions to the class key's, it
/// never replaces them, so nothing in the home's files opens a constrained item of a locked class.
extension Keychain {
    /// Seals `secret` for `policy`: a fresh secret key, wrapped once per alternative that can be made now, the
    /// envelope sealed under `itemKey`.
    /// - Throws: `errSecAuthFailed` when no alternative can be made (nothing enrolled, no passcode, no
    ///   application password); `errSecInteractionNotAllowed` while the passcode constraint key is locked.
    func sealConstrained(
        _ secret: [UInt8], policy: AccessControlPolicy, sealer: ItemSealer, itemKey: SecureBytes,
        context: AuthenticationContext?
    ) throws -> [UInt8] {
        let secretKey = try SystemRandom.key()
        let iterations = try applicationPasswordIterations(policy)
        var alternatives: [ConstraintEnvelope.Alternative] = []
        var firstFailure: KeychainError?
        for factors in policy.alternatives {
            let salt = try SystemRandom.bytes(16)
            do {
                let key = try alternativeKey(
                    factors, salt: salt, iterations: iterations, context: context,
                    creating: true)
                alternatives.append(
                    ConstraintEnvelope.Alternative(
                        factors: factors, salt: Data(salt), iterations: iterations,
                        wrapped: Data(try AESKeyWrap.wrap(secretKey, kek: key))))
            } catch let error as KeychainError {
                firstFailure = firstFailure ?? error
            }
        }
        guard !alternatives.isEmpty else {
            throw firstFailure ?? KeychainError.authFailed.because("the access control has no usable constraint")
        }
        let associated = sealer.constrainedSecretAssociatedData(policy)
        let sealed = try AESGCM.seal(secret, key: secretKey, authenticating: associated)
        var framed = try ConstraintEnvelope(alternatives: alternatives).framing(sealed)
        defer { wipe(&framed) }
        return try sealer.sealEnvelope(framed, itemKey: itemKey)
    }

    /// The framed key envelope of a constrained secret column: sealed under the item key since format 2, in
    /// the clear in format 1.
    /// - Throws: `errSecDecode` when the column does not authenticate.
    func constrainedEnvelopeColumn(_ column: [UInt8], sealer: ItemSealer, itemKey: SecureBytes) throws -> [UInt8] {
        guard sealer.version >= 2 else { return column }
        return try sealer.openEnvelope(column, itemKey: itemKey).bytes
    }

    /// The PBKDF2 rounds for a new application-password alternative: as many as the passcode's derivation takes,
    /// so a guess costs what a passcode guess does, and never fewer than this machine's tuning to
    /// `passcodeDerivationTarget` gives: the keybag's count is a file's word, which a writer of the home could lower.
    private func applicationPasswordIterations(_ policy: AccessControlPolicy) throws -> Int {
        guard policy.alternatives.contains(where: { $0.contains(.applicationPassword) }) else { return 0 }
        let tuned = try ApplicationPasswordWork.iterations(target: configuration.passcodeDerivationTarget)
        return max(try dataProtection.passcodeIterations ?? 0, tuned)
    }

    /// A query's authentication for one call: with the call's context, and the caller its prompts name.
    func authentication(_ given: ReadAuthentication, context: AuthenticationContext?, caller: CallerIdentity)
        -> ReadAuthentication
    {
        ReadAuthentication(context: context, ui: given.ui, operationPrompt: given.operationPrompt, asker: caller)
    }

    /// Opens a constrained item's secret, authenticating as `authentication` allows.
    /// - Throws: ``ConstraintSkip`` under `.skip`; errSecInteractionNotAllowed under `.fail`;
    ///   errSecUserCanceled, errSecAuthFailed as the authentication ends.
    func openConstrained(
        _ column: [UInt8], policy: AccessControlPolicy, sealer: ItemSealer, itemKey: SecureBytes,
        authentication: ReadAuthentication
    ) throws -> SecureBytes {
        let (envelope, sealed) = try ConstraintEnvelope.unframing(
            try constrainedEnvelopeColumn(column, sealer: sealer, itemKey: itemKey))
        let context = authentication.context ?? AuthenticationContext()
        // Only the passcode's key opens it, and that key went with the passcode: no prompt can help.
        if Self.onlyThePasscodeOpens(envelope.alternatives.map(\.factors)), try !dataProtection.hasPasscode {
            throw KeychainError.authFailed.because(Self.removedPasscodeReason)
        }
        var prompted: Set<AuthenticationPolicy> = []
        var promptable: (alternatives: [[ConstraintFactor]], reasonIfNone: KeychainError.Reason)?
        while true {
            // One look at the sensor's file per attempt: its keys and enrolled set for every alternative.
            let sensor = try authenticators.sensor.keys()
            if let key = try openAnySatisfied(envelope, context: context, sensor: sensor) {
                do {
                    let associated = sealer.constrainedSecretAssociatedData(policy)
                    return try AESGCM.open(sealed, key: key, authenticating: associated)
                } catch {
                    throw KeychainError.decode.because("a constrained item's secret does not authenticate")
                }
            }
            // Worked out once, before the first prompt: a prompt that cannot open the item is never shown.
            let usable = try promptable ?? promptableAlternatives(envelope, context: context, sensor: sensor)
            promptable = usable
            guard let policy = promptPolicy(usable.alternatives, context: context, excluding: prompted) else {
                throw KeychainError.authFailed.because(
                    usable.alternatives.isEmpty
                        ? usable.reasonIfNone : unsatisfiedReason(envelope.alternatives.map(\.factors)))
            }
            if authentication.ui == .skip { throw ConstraintSkip() }
            if authentication.ui == .fail || context.interactionNotAllowed {
                throw AuthenticationFailure.notInteractive.keychainError
            }
            if authentication.defersPrompts { throw PromptDeferred() }
            // The app's kSecUseOperationPrompt, else its context's localizedReason (Apple's order), after who asks.
            let reason = PromptText.item(
                asker: authentication.asker ?? configuration.identity,
                reason: authentication.operationPrompt ?? context.localizedReason)
            do {
                try authenticators.evaluate(policy, context: context, reason: reason)
            } catch let failure as AuthenticationFailure {
                throw failure.keychainError
            }
            prompted.insert(policy)
        }
    }

    /// The secret key from the first alternative whose factors the context satisfies and whose key opens it.
    private func openAnySatisfied(
        _ envelope: ConstraintEnvelope, context: AuthenticationContext, sensor: BiometricKeys
    ) throws -> SecureBytes? {
        for alternative in envelope.alternatives
        where try satisfied(alternative.factors, context: context, sensor: sensor) {
            guard
                let key = try? alternativeKey(
                    alternative.factors, salt: Array(alternative.salt),
                    iterations: alternative.iterations, context: context, creating: false,
                    sensor: sensor),
                let secretKey = try? AESKeyWrap.unwrap(Array(alternative.wrapped), kek: key)
            else { continue }  // e.g. biometryCurrentSet after an enrollment change: gone for good
            return secretKey
        }
        return nil
    }

    /// Whether `context` holds every factor of an alternative now (biometry and the companion only while a
    /// passcode is set).
    func satisfied(
        _ factors: [ConstraintFactor], context: AuthenticationContext, sensor: BiometricKeys
    ) throws -> Bool {
        for factor in factors {
            if factor == .applicationPassword {
                guard context.hasApplicationPassword else { return false }
            } else if let method = factor.method {
                // Apple's biometry and watch need a passcode: without one, an authentication held from before
                // its removal counts for nothing.
                if method != .devicePasscode, try !dataProtection.hasPasscode { return false }
                let holds =
                    method == .biometry
                    ? context.holds(.biometry, now: configuration.clock(), domainState: sensor.domainState)
                    : try authenticators.holds(method, in: context)
                guard holds else { return false }
            } else {
                return false
            }
        }
        return true
    }

    /// What to ask the user for next: biometry with passcode fallback, or one of them, for the alternatives
    /// not yet tried; nil when no prompt can help (an application password is missing, or all were tried).
    func promptPolicy(
        _ alternatives: [[ConstraintFactor]], context: AuthenticationContext, excluding tried: Set<AuthenticationPolicy>
    ) -> AuthenticationPolicy? {
        let usable = alternatives.filter { factors in
            !factors.contains(.applicationPassword) || context.hasApplicationPassword
        }
        let biometry = usable.contains { $0.contains { $0.method == .biometry } }
        let passcode = usable.contains { $0.contains(.devicePasscode) }
        let companion = usable.contains { $0.contains(.companion) }
        var choices: [AuthenticationPolicy] =
            biometry && passcode
            ? [.deviceOwner, .devicePasscode]
            : biometry ? [.biometrics] : passcode ? [.devicePasscode] : []
        if companion {
            // Biometry or the watch, asked together; then each alone, for `.and` of the two.
            choices =
                choices == [.biometrics]
                ? [.biometricsOrCompanion, .companion, .biometrics] : choices + [.companion]
        }
        return choices.first { !tried.contains($0) }
    }

    func unsatisfiedReason(_ alternatives: [[ConstraintFactor]]) -> KeychainError.Reason {
        if alternatives.allSatisfy({ $0.contains(.applicationPassword) }) {
            return Reason(
                "the item needs its application password (LAContext.setCredential(_:type: .applicationPassword))")
        }
        return Reason(
            "no constraint of the item's access control opens it now (a biometryCurrentSet item cannot be "
                + "read after the enrolled biometry changed)")
    }

    /// Why an item bound to a removed passcode cannot be opened, now or ever.
    static var removedPasscodeReason: KeychainError.Reason {
        Reason(
            "every alternative of the item's access control needs the device passcode it was stored under, and that "
                + "passcode was removed (a new one does not replace it): the item can never be opened again; delete it")
    }

    /// The key of one alternative: every factor's key, combined with HKDF.
    func alternativeKey(
        _ factors: [ConstraintFactor], salt: [UInt8], iterations: Int, context: AuthenticationContext?, creating: Bool,
        sensor: BiometricKeys? = nil
    ) throws -> SecureBytes {
        var material: [UInt8] = []
        defer { wipe(&material) }
        for factor in factors {
            let key: SecureBytes
            switch factor {
            case .biometryAny:
                key = try sensor?.anyKey ?? authenticators.sensor.anyKey()
            case .biometryCurrentSet:
                let known = sensor.map { $0.currentSetKey }
                guard let current = try known ?? authenticators.sensor.keys().currentSetKey else {
                    throw KeychainError.authFailed.because("biometryCurrentSet needs enrolled biometry, and none is")
                }
                key = current
            case .devicePasscode:
                key = try dataProtection.passcodeConstraintKey()
            case .applicationPassword:
                guard let password = context?.applicationPassword else {
                    throw KeychainError.authFailed.because(
                        "applicationPassword needs LAContext.setCredential(_:type: .applicationPassword) on the "
                            + "context passed as kSecUseAuthenticationContext")
                }
                key = try KeyDerivation.pbkdf2SHA256(password: password, salt: salt, iterations: iterations)
            case .companion:
                key = try authenticators.companion.key()
            }
            key.withUnsafeBytes { material += $0 }
        }
        if creating, factors.contains(where: { $0.method != nil }), try !dataProtection.hasPasscode {
            throw KeychainError.authFailed.because("biometry and passcode constraints need a keychain passcode")
        }
        let info =
            Array(KeyHierarchy.constraintAlternativePrefix.utf8)
            + Array(factors.map(\.rawValue).joined(separator: ",").utf8)
        return try KeyDerivation.hkdfSHA256(key: SecureBytes(material), salt: salt, info: info)
    }
}

/// The PBKDF2 rounds that take `passcodeDerivationTarget` on this machine, measured once per process and target.
private enum ApplicationPasswordWork {
    private static let tuned = Mutex<[Double: Int]>([:])

    static func iterations(target: Double) throws -> Int {
        if let known = tuned.withLock({ $0[target] }) { return known }
        let measured = try PasscodeKDF.tune(target: target).iterations
        tuned.withLock { $0[target] = measured }
        return measured
    }
}

/// Thrown under `kSecUseAuthenticationUISkip` for an item that needs authentication: the search leaves it out.
struct ConstraintSkip: Error {}
