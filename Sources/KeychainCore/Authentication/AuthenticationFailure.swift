/// Why an authentication did not succeed, with LocalAuthentication's codes (`LAError.Code` raw values).
package enum AuthenticationFailure: Int, Error, Sendable, CaseIterable {
    case authenticationFailed = -1
    case userCancel = -2
    case userFallback = -3
    case systemCancel = -4
    case passcodeNotSet = -5
    case biometryNotAvailable = -6
    case biometryNotEnrolled = -7
    case biometryLockout = -8
    case appCancel = -9
    case invalidContext = -10
    case watchNotAvailable = -11
    case notInteractive = -1004

    /// The `LAError` code.
    package var code: Int { rawValue }

    /// What the keychain returns when a read needed this authentication, as Apple's `SecItem.m` maps it: the
    /// user's cancel is errSecUserCanceled, a refused interaction errSecInteractionNotAllowed, and anything else
    /// (the system's or the app's cancel, the fallback among them) errSecAuthFailed.
    package var keychainError: KeychainError {
        switch self {
        case .userCancel:
            KeychainError(SecurityStatus.userCanceled, reason: "the authentication was canceled")
        case .notInteractive:
            KeychainError.interactionNotAllowed.because(
                "the item needs user authentication and interaction is not allowed")
        default:
            KeychainError.authFailed.because("the item needs user authentication, which failed: \(summary)")
        }
    }

    /// A short description, never containing a secret.
    package var summary: KeychainError.Reason {
        switch self {
        case .authenticationFailed: KeychainError.Reason("the user could not be authenticated")
        case .userCancel: KeychainError.Reason("the user canceled")
        case .userFallback: KeychainError.Reason("the user chose the fallback")
        case .systemCancel: KeychainError.Reason("the system canceled")
        case .passcodeNotSet: KeychainError.Reason("no keychain passcode is set")
        case .biometryNotAvailable: KeychainError.Reason("no biometry is available")
        case .biometryNotEnrolled: KeychainError.Reason("no biometry is enrolled")
        case .biometryLockout: KeychainError.Reason("biometry is locked out after too many failed attempts")
        case .appCancel: KeychainError.Reason("the app canceled")
        case .invalidContext: KeychainError.Reason("the context was invalidated")
        case .watchNotAvailable: KeychainError.Reason("no companion device is available")
        case .notInteractive: KeychainError.Reason("interaction is not allowed")
        }
    }
}
