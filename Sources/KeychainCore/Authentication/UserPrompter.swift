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
    /// The user typed this passcode; the keychain verifies it, counting a wrong one with `typedBy`'s attempts.
    case passcode(SecureBytesBox, typedBy: PasscodeAttempter = .anyone)
}

/// Who asks the user: injected into the keychain (``KeychainConfiguration/userPrompter``) so that a daemon can
/// send a prompt back to the client it serves. Without one, ``LocalUserPrompter`` asks in this process.
package protocol UserPrompter: Sendable {
    /// Asks the user. - Throws: `AuthenticationFailure` (canceled, no match, fallback chosen, …).
    func ask(_ prompt: UserPrompt) throws -> PromptAnswer
}

/// Who answers a device-passcode prompt that has no scripted entry.
enum UnscriptedPasscodeAnswer: Sendable, Equatable {
    /// The system's owner authentication (PAM at the user's terminal).
    case system(SystemOwnerAuthentication)
    /// A user who dismisses it: a script-only keychain (tests, demos, `KEYCHAIN_AUTHENTICATION=simulated`).
    case dismissed
    /// Nobody: the system was meant to answer and its helper is missing, so the prompt cannot be shown.
    case cannotBeShown

    init(_ configuration: KeychainConfiguration) {
        if let owner = configuration.ownerAuthentication {
            self = .system(owner)
        } else {
            self = configuration.ownerHelperMissing ? .cannotBeShown : .dismissed
        }
    }
}

/// Asks in this process: the biometric sensor in use, the simulated companion, and at a passcode prompt the
/// scripted entry, else whoever ``UnscriptedPasscodeAnswer`` names.
package struct LocalUserPrompter: UserPrompter {
    let sensor: any BiometricSensor
    let companion: SimulatedCompanion
    let passcodePrompt: PasscodePrompt
    let unscripted: UnscriptedPasscodeAnswer

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
                switch unscripted {
                case .system(let owner): try owner.authenticate(reason: reason).requireSuccess()
                case .dismissed: throw AuthenticationFailure.userCancel
                case .cannotBeShown: throw AuthenticationFailure.notInteractive
                }
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
