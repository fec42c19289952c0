import Foundation
import KeychainMessages

/// The domain of LocalAuthentication errors.
public let LAErrorDomain = "com.apple.LocalAuthentication"

/// A LocalAuthentication failure, with Apple's codes; bridges to an `NSError` in `LAErrorDomain`.
public struct LAError: Error, CustomNSError, Hashable, @unchecked Sendable {  // safe: immutable
    /// Apple's error codes: an enumeration of `Int`, as Swift imports Apple's, so that `Code(rawValue:)` is
    /// failable and a `switch` over every case compiles (with `@unknown default` too). An old name that shares a
    /// value with a newer one is a deprecated alias, as in Apple's SDK.
    public enum Code: Int, Hashable, Sendable {
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
        /// No paired companion device (iOS 18, macOS 15): the watch error's new name, with its value.
        case companionNotAvailable = -11
        case biometryNotPaired = -12
        case biometryDisconnected = -13
        case invalidDimensions = -14
        case notInteractive = -1004

        /// The older name of `companionNotAvailable` (Apple deprecates it on macOS 15 only).
        public static var watchNotAvailable: Code { .companionNotAvailable }
        @available(*, deprecated, renamed: "biometryNotAvailable")
        public static var touchIDNotAvailable: Code { .biometryNotAvailable }
        @available(*, deprecated, renamed: "biometryNotEnrolled")
        public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
        @available(*, deprecated, renamed: "biometryLockout")
        public static var touchIDLockout: Code { .biometryLockout }
    }

    /// The code of this error (`.authenticationFailed` for an `NSError`'s code that names no `Code`).
    public var code: Code { Code(rawValue: rawCode) ?? .authenticationFailed }
    /// The code as given, kept whole: an `NSError`'s code that names no `Code` too.
    private let rawCode: Int
    /// What the error carries besides its code, as an `NSError`'s user info.
    public let userInfo: [String: Any]

    /// Makes an error with `code`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        rawCode = code.rawValue
        self.userInfo = userInfo
    }

    /// The error an `NSError` of `LAErrorDomain` describes: its code and its user info, as Apple's bridged error
    /// type takes it. (Apple's stops the process for an error of another domain; this one keeps the code.)
    public init(_nsError error: NSError) {
        rawCode = error.code
        userInfo = error.userInfo
    }

    /// Equal code and user info, each value compared as `NSError`'s equality compares it (by its own equality).
    public static func == (lhs: LAError, rhs: LAError) -> Bool {
        guard lhs.rawCode == rhs.rawCode, lhs.userInfo.count == rhs.userInfo.count else { return false }
        return lhs.userInfo.allSatisfy { key, value in
            guard let other = rhs.userInfo[key] else { return false }
            if let value = value as? AnyHashable, let other = other as? AnyHashable { return value == other }
            return false
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawCode) }

    public static var errorDomain: String { LAErrorDomain }
    public var errorCode: Int { rawCode }
    /// The given user info, with the description iOS gives for the code (in the user's language: English, or
    /// Japanese when `LC_ALL`, `LC_MESSAGES` or `LANG` asks for it) unless one was given.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = userInfo
        if info[NSLocalizedDescriptionKey] == nil,
            let text = LocalAuthenticationMessages.description(ofCode: rawCode, in: .current)
        {
            info[NSLocalizedDescriptionKey] = text
        }
        return info
    }

    public static var authenticationFailed: Code { .authenticationFailed }
    public static var userCancel: Code { .userCancel }
    public static var userFallback: Code { .userFallback }
    public static var systemCancel: Code { .systemCancel }
    public static var passcodeNotSet: Code { .passcodeNotSet }
    public static var biometryNotAvailable: Code { .biometryNotAvailable }
    public static var biometryNotEnrolled: Code { .biometryNotEnrolled }
    public static var biometryLockout: Code { .biometryLockout }
    public static var appCancel: Code { .appCancel }
    public static var invalidContext: Code { .invalidContext }
    public static var notInteractive: Code { .notInteractive }
    public static var watchNotAvailable: Code { .companionNotAvailable }
    public static var biometryNotPaired: Code { .biometryNotPaired }
    public static var biometryDisconnected: Code { .biometryDisconnected }
    public static var invalidDimensions: Code { .invalidDimensions }
    public static var companionNotAvailable: Code { .companionNotAvailable }
}

extension LAError.Code {
    /// The description iOS gives for this code, in `language`; nil for a code LocalAuthentication does not define.
    package func localizedDescription(in language: MessageLanguage) -> String? {
        LocalAuthenticationMessages.description(ofCode: rawValue, in: language)
    }

    /// Lets `catch LAError.userCancel` match.
    public static func ~= (code: LAError.Code, error: any Error) -> Bool {
        (error as? LAError)?.code == code
    }
}
