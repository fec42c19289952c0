import KeychainMessages

/// A keychain failure: Apple's `OSStatus`, Apple's message for it, and, where the engine knows it, the reason.
///
/// Match on the status with `catch KeychainError.itemNotFound`. The reason never contains secret bytes.
public struct KeychainError: Error, Equatable, Sendable {
    /// Apple's status code (`errSec…`).
    public let status: Int32
    /// Why this call failed, in terms of the caller's own query, when the engine can say: a template and its
    /// arguments, readable in English and Japanese.
    public let explanation: Reason?

    /// ``explanation`` in English.
    public var reason: String? { explanation?.english }

    /// Makes an error for `status`, optionally explaining it.
    public init(_ status: Int32, reason: Reason? = nil) {
        self.status = status
        self.explanation = reason
    }

    /// ``explanation`` in `language` (English for any part without a translation).
    public func localizedReason(in language: MessageLanguage) -> String? { explanation?.text(in: language) }

    /// Apple's message for the status.
    public var message: String { SecurityStatus.message(for: status) }

    /// The same status with a reason attached.
    public func because(_ reason: Reason) -> KeychainError { KeychainError(status, reason: reason) }

    /// The same status with a text that reads the same in every language (a system's or a library's message).
    public func because(verbatim text: String) -> KeychainError { because(Reason(verbatim: text)) }

    /// Equal statuses: `#expect(throws: KeychainError.itemNotFound)` and `catch` patterns compare errors by
    /// status, whatever the reason; compare ``explanation`` to tell reasons apart.
    public static func == (lhs: KeychainError, rhs: KeychainError) -> Bool { lhs.status == rhs.status }

    /// Lets `catch KeychainError.itemNotFound` match any error with that status, whatever its reason.
    public static func ~= (pattern: KeychainError, value: any Error) -> Bool {
        (value as? KeychainError)?.status == pattern.status
    }

    public static let unimplemented = KeychainError(SecurityStatus.unimplemented)
    public static let io = KeychainError(SecurityStatus.io)
    public static let param = KeychainError(SecurityStatus.param)
    public static let allocate = KeychainError(SecurityStatus.allocate)
    public static let notAvailable = KeychainError(SecurityStatus.notAvailable)
    public static let authFailed = KeychainError(SecurityStatus.authFailed)
    public static let duplicateItem = KeychainError(SecurityStatus.duplicateItem)
    public static let itemNotFound = KeychainError(SecurityStatus.itemNotFound)
    public static let noSuchAttr = KeychainError(SecurityStatus.noSuchAttr)
    public static let invalidItemRef = KeychainError(SecurityStatus.invalidItemRef)
    public static let noSuchClass = KeychainError(SecurityStatus.noSuchClass)
    public static let interactionNotAllowed = KeychainError(SecurityStatus.interactionNotAllowed)
    public static let decode = KeychainError(SecurityStatus.decode)
    public static let missingEntitlement = KeychainError(SecurityStatus.missingEntitlement)
}

extension KeychainError: CustomStringConvertible {
    public var description: String {
        let base = "\(message) (OSStatus \(status))"
        return reason.map { "\(base): \($0)" } ?? base
    }
}
