/// What an evaluation asks of the user (LocalAuthentication's `LAPolicy`, plus the passcode alone, which the
/// keychain asks for `.devicePasscode` items).
public enum AuthenticationPolicy: Sendable, Hashable {
    /// Biometry only.
    case biometrics
    /// Biometry, falling back to the device (keychain) passcode.
    case deviceOwner
    /// The device passcode only.
    case devicePasscode
    /// A paired companion device.
    case companion
    /// Biometry or a companion device.
    case biometricsOrCompanion
}

/// A way the user proved presence.
public enum AuthenticationMethod: String, Sendable, Hashable, Codable {
    case biometry
    case devicePasscode
    case companion
}

/// A scripted reaction of the simulated user at a biometric prompt, as chosen in the iOS Simulator's menu.
public enum BiometricOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// A matching finger or face.
    case match
    /// A finger or face that does not match (counts toward the lockout).
    case noMatch
    /// The user taps Cancel.
    case cancel
    /// The user taps the fallback button ("Enter Password").
    case fallback
}
