import Foundation
import Security

/// What a right (`LARight`) asks of the user before it is granted (iOS 16, macOS 13). Final: the kinds are
/// the ones this file defines.
public final class LAAuthenticationRequirement: NSObject, @unchecked Sendable {  // safe: immutable
    /// The requirements this keychain tells apart.
    enum Kind: String, Sendable {
        /// Biometry, falling back to the passcode: the device owner.
        case deviceOwner
        /// Biometry of any enrolled set, with no fallback but the app's own.
        case biometry
        /// Biometry of the set enrolled when the right was made or saved.
        case biometryCurrentSet
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// The user authenticates with biometry or the device passcode.
    public class var `default`: LAAuthenticationRequirement { LAAuthenticationRequirement(.deviceOwner) }

    /// The user authenticates with biometry: it fails where no sensor is available or nothing is enrolled.
    public class var biometry: LAAuthenticationRequirement { LAAuthenticationRequirement(.biometry) }

    /// As ``biometry``, with the set enrolled now: once it changes (a finger added or removed), the right can no
    /// longer be granted.
    public class var biometryCurrentSet: LAAuthenticationRequirement {
        LAAuthenticationRequirement(.biometryCurrentSet)
    }

    /// Biometry, or `fallback` when biometry fails, is unavailable or the user prefers it. The default fallback is
    /// the app's own (the prompt's fallback ends the authorization with `.userFallback`), as ``biometry``.
    public class func biometry(fallback: LABiometryFallbackRequirement) -> Self {
        Self(fallback.allowsPasscode ? .deviceOwner : .biometry)
    }

    public override func isEqual(_ object: Any?) -> Bool { (object as? LAAuthenticationRequirement)?.kind == kind }

    public override var hash: Int { kind.hashValue }

    public override var description: String { "LAAuthenticationRequirement(\(kind.rawValue))" }

    /// The policy an authorization evaluates.
    var policy: LAPolicy {
        switch kind {
        case .deviceOwner: .deviceOwnerAuthentication
        case .biometry, .biometryCurrentSet: .deviceOwnerAuthenticationWithBiometrics
        }
    }

    /// The access control of what a persisted right protects: its key and its secret.
    var accessControlFlags: SecAccessControlCreateFlags {
        switch kind {
        case .deviceOwner: .userPresence
        case .biometry: .biometryAny
        case .biometryCurrentSet: .biometryCurrentSet
        }
    }
}

/// What a biometric requirement falls back to (iOS 16, macOS 13).
public final class LABiometryFallbackRequirement: NSObject, @unchecked Sendable {  // safe: immutable
    let allowsPasscode: Bool

    init(allowsPasscode: Bool) { self.allowsPasscode = allowsPasscode }

    /// The app's own fallback: the prompt's fallback ends the authorization with `.userFallback`.
    public class var `default`: LABiometryFallbackRequirement { LABiometryFallbackRequirement(allowsPasscode: false) }

    /// The device passcode.
    public class var devicePasscode: LABiometryFallbackRequirement {
        LABiometryFallbackRequirement(allowsPasscode: true)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? LABiometryFallbackRequirement)?.allowsPasscode == allowsPasscode
    }

    public override var hash: Int { allowsPasscode.hashValue }
}
