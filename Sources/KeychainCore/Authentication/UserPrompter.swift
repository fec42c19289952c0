import KeychainCrypto

/// Something the keychain asks the user.
package enum UserPrompt: Sendable, Hashable {
    /// A biometric match, showing `reason` where the sensor has a place for it.
    case biometry(reason: String)
    /// An approval on the paired companion device.
    case companion
    /// The device passcode (or the system's own owner authentication), showing `reason`.
    case devicePasscode(reason: String)
}

/// How the user answered a prompt that did not fail.
package enum PromptAnswer: Sendable {
    /// The prompt's own check passed: a biometric match, the companion's approval, the system's authentication.
    case confirmed
    /// The user typed this passcode; the keychain verifies it.
    case passcode(SecureBytesBox)
}

/// Who asks the user: injected into the keychain (``KeychainConfiguration/userPrompter``) so that a daemon can
/// send a prompt back to the client it serves. Without one, ``LocalUserPrompter`` asks in this process.
package protocol UserPrompter: Sendable {
    /// Asks the user. - Throws: `AuthenticationFailure` (canceled, no match, fallback chosen, …).
    func ask(_ prompt: UserPrompt) throws -> PromptAnswer
}

/// Asks in this process: the biometric sensor in use, the simulated companion, and at a passcode prompt the
/// scripted entry, else the system's owner authentication (PAM), else nobody: a prompt that cannot be shown when
/// the system's helper is missing, a dismissed one in a script-only keychain.
package struct LocalUserPrompter: UserPrompter {
    let sensor: any BiometricSensor
    let companion: SimulatedCompanion
    let passcodePrompt: PasscodePrompt
    let owner: SystemOwnerAuthentication?
    let ownerHelperMissing: Bool

    package func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
        switch prompt {
        case .biometry(let reason):
            try sensor.prompt(reason: reason)
        case .companion:
            try companion.prompt()
        case .devicePasscode(let reason):
            switch passcodePrompt.next() {
            case .cancel?: throw AuthenticationFailure.userCancel
            case .enter(let passcode)?: return .passcode(passcode)
            case nil:
                guard let owner else {
                    throw ownerHelperMissing ? AuthenticationFailure.notInteractive : AuthenticationFailure.userCancel
                }
                try owner.authenticate(reason: reason).requireSuccess()
            }
        }
        return .confirmed
    }
}

/// Secret bytes that cross the public API without exposing `SecureBytes`.
package struct SecureBytesBox: Sendable, CustomStringConvertible {
    package let secure: SecureBytes

    /// Copies `bytes` into wiped-on-free memory.
    /// Takes `secure` as it is (no copy).
    package init(secure: SecureBytes) { self.secure = secure }

    package init(_ bytes: [UInt8]) {
        secure = SecureBytes(bytes)
    }

    package var description: String { "<redacted>" }
}
