import KeychainCore

/// What an evaluation asks of the user.
public enum LAPolicy: Int, Sendable {
    /// Biometry only.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometry, falling back to the device passcode.
    case deviceOwnerAuthentication = 2
    /// A paired watch.
    case deviceOwnerAuthenticationWithWatch = 3
    /// Biometry or a paired watch.
    case deviceOwnerAuthenticationWithBiometricsOrWatch = 4
    /// Wrist detection on a paired watch.
    case deviceOwnerAuthenticationWithWristDetection = 5

    /// A paired companion device (iOS 18, macOS 15): the watch policy's new name, with its value.
    public static var deviceOwnerAuthenticationWithCompanion: LAPolicy { .deviceOwnerAuthenticationWithWatch }
    /// Biometry or a paired companion device (iOS 18, macOS 15): the biometry-or-watch policy's new name.
    public static var deviceOwnerAuthenticationWithBiometricsOrCompanion: LAPolicy {
        .deviceOwnerAuthenticationWithBiometricsOrWatch
    }
}

/// The kind of biometric sensor available.
public enum LABiometryType: Int, Sendable {
    case none = 0
    case touchID = 1
    case faceID = 2
    case opticID = 4

    @available(*, deprecated, renamed: "none")
    public static var typeNone: LABiometryType { .none }

    /// iOS 11.0's name for `.none`, which Swift still imports from Apple's header.
    @available(*, deprecated, renamed: "none")
    public static var LABiometryNone: LABiometryType { .none }
}

/// The longest time, in seconds, a biometric match may be reused (five minutes, as on Apple devices).
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: Double = 300

extension LAPolicy {
    /// The engine's policy.
    var engine: AuthenticationPolicy {
        switch self {
        case .deviceOwnerAuthenticationWithBiometrics: .biometrics
        case .deviceOwnerAuthentication: .deviceOwner
        case .deviceOwnerAuthenticationWithWatch, .deviceOwnerAuthenticationWithWristDetection: .companion
        case .deviceOwnerAuthenticationWithBiometricsOrWatch: .biometricsOrCompanion
        }
    }
}
