import Foundation
import KeychainMessages

/// The domain of LocalAuthentication errors.
public let LAErrorDomain = "com.apple.LocalAuthentication"

/// A LocalAuthentication failure, with Apple's codes; bridges to an `NSError` in `LAErrorDomain`.
public struct LAError: Error, CustomNSError, Hashable, @unchecked Sendable {  // safe: immutable
    /// Apple's error codes (several old names share a value, so this is a struct, not an enum).
    public struct Code: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public init?(_ rawValue: Int) { self.rawValue = rawValue }

        public static let authenticationFailed = Code(rawValue: -1)
        public static let userCancel = Code(rawValue: -2)
        public static let userFallback = Code(rawValue: -3)
        public static let systemCancel = Code(rawValue: -4)
        public static let passcodeNotSet = Code(rawValue: -5)
        public static let biometryNotAvailable = Code(rawValue: -6)
        public static let biometryNotEnrolled = Code(rawValue: -7)
        public static let biometryLockout = Code(rawValue: -8)
        public static let appCancel = Code(rawValue: -9)
        public static let invalidContext = Code(rawValue: -10)
        public static let watchNotAvailable = Code(rawValue: -11)
        public static let biometryNotPaired = Code(rawValue: -12)
        public static let biometryDisconnected = Code(rawValue: -13)
        public static let invalidDimensions = Code(rawValue: -14)
        /// No paired companion device (iOS 18, macOS 15): the watch error's new name, with its value.
        public static let companionNotAvailable = Code(rawValue: -11)
        public static let notInteractive = Code(rawValue: -1004)
        @available(*, deprecated, renamed: "biometryNotAvailable")
        public static let touchIDNotAvailable = Code(rawValue: -6)
        @available(*, deprecated, renamed: "biometryNotEnrolled")
        public static let touchIDNotEnrolled = Code(rawValue: -7)
        @available(*, deprecated, renamed: "biometryLockout")
        public static let touchIDLockout = Code(rawValue: -8)
    }

    /// The code of this error.
    public let code: Code
    /// What the error carries besides its code, as an `NSError`'s user info.
    public let userInfo: [String: Any]

    /// Makes an error with `code`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    /// The error an `NSError` of `LAErrorDomain` describes: its code and its user info, as Apple's bridged error
    /// type takes it. (Apple's stops the process for an error of another domain; this one keeps the code.)
    public init(_nsError error: NSError) {
        self.init(Code(rawValue: error.code), userInfo: error.userInfo)
    }

    /// Equal code and user info, each value compared as `NSError`'s equality compares it (by its own equality).
    public static func == (lhs: LAError, rhs: LAError) -> Bool {
        guard lhs.code == rhs.code, lhs.userInfo.count == rhs.userInfo.count else { return false }
        return lhs.userInfo.allSatisfy { key, value in
            guard let other = rhs.userInfo[key] else { return false }
            if let value = value as? AnyHashable, let other = other as? AnyHashable { return value == other }
            return false
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var errorDomain: String { LAErrorDomain }
    public var errorCode: Int { code.rawValue }
    /// The given user info, with the description iOS gives for the code (in the user's language: English, or
    /// Japanese when `LC_ALL`, `LC_MESSAGES` or `LANG` asks for it) unless one was given.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = userInfo
        if info[NSLocalizedDescriptionKey] == nil, let text = code.localizedDescription(in: .current) {
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
    public static var watchNotAvailable: Code { .watchNotAvailable }
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
