import Foundation
import KeychainCore
import KeychainMessages

/// Flags for `SecAccessControlCreateWithFlags`, with Apple's bit values.
public struct SecAccessControlCreateFlags: OptionSet, Sendable, Hashable {
    public let rawValue: CFOptionFlags
    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }

    /// Biometry or the device passcode.
    public static let userPresence = SecAccessControlCreateFlags(rawValue: AccessControlFlags.userPresence.rawValue)
    /// Any enrolled biometry; survives enrollment changes.
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: AccessControlFlags.biometryAny.rawValue)
    @available(*, deprecated, renamed: "biometryAny")
    public static let touchIDAny = SecAccessControlCreateFlags(rawValue: AccessControlFlags.biometryAny.rawValue)
    /// The biometry enrolled now; invalidated when enrollment changes.
    public static let biometryCurrentSet = SecAccessControlCreateFlags(
        rawValue: AccessControlFlags.biometryCurrentSet.rawValue)
    @available(*, deprecated, renamed: "biometryCurrentSet")
    public static let touchIDCurrentSet = SecAccessControlCreateFlags(
        rawValue: AccessControlFlags.biometryCurrentSet.rawValue)
    /// The device passcode.
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: AccessControlFlags.devicePasscode.rawValue)
    /// A paired watch.
    public static let watch = SecAccessControlCreateFlags(rawValue: AccessControlFlags.companion.rawValue)
    /// A paired companion device.
    public static let companion = SecAccessControlCreateFlags(rawValue: AccessControlFlags.companion.rawValue)
    /// Any one of the constraints suffices.
    public static let or = SecAccessControlCreateFlags(rawValue: AccessControlFlags.or.rawValue)
    /// Every constraint is required.
    public static let and = SecAccessControlCreateFlags(rawValue: AccessControlFlags.and.rawValue)
    /// The private key may be used only inside its token.
    public static let privateKeyUsage = SecAccessControlCreateFlags(
        rawValue: AccessControlFlags.privateKeyUsage.rawValue)
    /// An application-provided password is part of the item's protection.
    public static let applicationPassword = SecAccessControlCreateFlags(
        rawValue: AccessControlFlags.applicationPassword.rawValue)
}

/// An access control object: a protection class and the constraints on using the item.
public final class SecAccessControl: Hashable, @unchecked Sendable {  // safe: immutable
    package let policy: AccessControlPolicy

    init(policy: AccessControlPolicy) { self.policy = policy }

    public static func == (lhs: SecAccessControl, rhs: SecAccessControl) -> Bool { lhs.policy == rhs.policy }
    public func hash(into hasher: inout Hasher) { hasher.combine(policy) }
}

/// The type identifier of `SecAccessControl`.
public func SecAccessControlGetTypeID() -> CFTypeID { SecTypeIdentifiers.accessControl }

/// Creates an access control object.
/// - Parameters:
///   - allocator: nil or `kCFAllocatorDefault`.
///   - protection: a `kSecAttrAccessible…` value.
///   - flags: the constraints.
///   - error: receives an `NSOSStatusErrorDomain` error (`errSecParam`) when the arguments are invalid.
/// - Returns: the object, or nil on error.
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    func fail(_ reason: KeychainError.Reason) -> SecAccessControl? {
        let nsError = NSError(
            domain: "NSOSStatusErrorDomain", code: Int(errSecParam),
            userInfo: [NSLocalizedDescriptionKey: reason.text(in: .current)])
        error?.pointee = Unmanaged.passRetained(nsError)
        return nil
    }
    guard let raw = protection as? String, let accessibility = Accessibility(rawValue: raw) else {
        return fail(KeychainError.Reason("the protection is not a kSecAttrAccessible value"))
    }
    if flags.contains(.or) && flags.contains(.and) {
        return fail(KeychainError.Reason("the flags combine .or and .and"))
    }
    // Apple's two further checks: one biometry constraint at most, and .userPresence (biometry or passcode,
    // itself) alone or with the two flags that are no constraint of the same kind.
    if flags.contains(.biometryAny) && flags.contains(.biometryCurrentSet) {
        return fail(KeychainError.Reason("the flags combine .biometryAny and .biometryCurrentSet; one may be set"))
    }
    if flags.contains(.userPresence),
        !flags.subtracting([.userPresence, .applicationPassword, .privateKeyUsage]).isEmpty
    {
        return fail(
            KeychainError.Reason(
                ".userPresence combines only with .applicationPassword and .privateKeyUsage"))
    }
    return SecAccessControl(
        policy: AccessControlPolicy(accessibility: accessibility, flags: AccessControlFlags(rawValue: flags.rawValue)))
}
