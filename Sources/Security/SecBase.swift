import Foundation
import KeychainCore
import KeychainMessages

// Status codes of SecBase.h, with Apple's values: one table, `SecurityStatus`, holds each code and its message.

public let errSecSuccess: OSStatus = SecurityStatus.success
public let errSecUnimplemented: OSStatus = SecurityStatus.unimplemented
public let errSecDiskFull: OSStatus = SecurityStatus.diskFull
public let errSecIO: OSStatus = SecurityStatus.io
public let errSecParam: OSStatus = SecurityStatus.param
public let errSecWrPerm: OSStatus = SecurityStatus.writePermission
public let errSecAllocate: OSStatus = SecurityStatus.allocate
public let errSecUserCanceled: OSStatus = SecurityStatus.userCanceled
public let errSecBadReq: OSStatus = SecurityStatus.badReq
public let errSecInternalComponent: OSStatus = SecurityStatus.internalComponent
public let errSecCoreFoundationUnknown: OSStatus = SecurityStatus.coreFoundationUnknown
public let errSecNotAvailable: OSStatus = SecurityStatus.notAvailable
public let errSecReadOnly: OSStatus = SecurityStatus.readOnly
public let errSecAuthFailed: OSStatus = SecurityStatus.authFailed
public let errSecNoSuchKeychain: OSStatus = SecurityStatus.noSuchKeychain
public let errSecInvalidKeychain: OSStatus = SecurityStatus.invalidKeychain
public let errSecDuplicateKeychain: OSStatus = SecurityStatus.duplicateKeychain
public let errSecDuplicateItem: OSStatus = SecurityStatus.duplicateItem
public let errSecItemNotFound: OSStatus = SecurityStatus.itemNotFound
public let errSecBufferTooSmall: OSStatus = SecurityStatus.bufferTooSmall
public let errSecDataTooLarge: OSStatus = SecurityStatus.dataTooLarge
public let errSecNoSuchAttr: OSStatus = SecurityStatus.noSuchAttr
public let errSecInvalidItemRef: OSStatus = SecurityStatus.invalidItemRef
public let errSecInvalidSearchRef: OSStatus = SecurityStatus.invalidSearchRef
public let errSecNoSuchClass: OSStatus = SecurityStatus.noSuchClass
public let errSecNoDefaultKeychain: OSStatus = SecurityStatus.noDefaultKeychain
public let errSecInteractionNotAllowed: OSStatus = SecurityStatus.interactionNotAllowed
public let errSecReadOnlyAttr: OSStatus = SecurityStatus.readOnlyAttribute
public let errSecNoAccessForItem: OSStatus = SecurityStatus.noAccessForItem
public let errSecDataNotAvailable: OSStatus = SecurityStatus.dataNotAvailable
public let errSecDataNotModifiable: OSStatus = SecurityStatus.dataNotModifiable
public let errSecDecode: OSStatus = SecurityStatus.decode
public let errSecMissingEntitlement: OSStatus = SecurityStatus.missingEntitlement
public let errSecVerifyFailed: OSStatus = SecurityStatus.verifyFailed
public let errSecNotTrusted: OSStatus = SecurityStatus.notTrusted
public let errSecInvalidOwnerEdit: OSStatus = SecurityStatus.invalidOwnerEdit

/// Apple's text for a status code: "No error." for 0, "OSStatus N" for a code it does not describe. In Japanese
/// when the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`) is Japanese, else in English.
/// - Parameters:
///   - status: the status to describe.
///   - reserved: pass nil.
/// - Returns: the message.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    SecurityStatusText.message(for: status, in: .current) as NSString
}

/// The text `SecCopyErrorMessageString` gives, in a chosen language.
package enum SecurityStatusText {
    package static func message(for status: OSStatus, in language: MessageLanguage) -> String {
        // A code of SecBase.h the keychain never returns has no message here: its name says what it is.
        if !SecurityStatus.describes(status), let name = SecBaseStatusNames.name(of: status) {
            return "\(name) (OSStatus \(status))"
        }
        return StatusMessages.text(for: status, english: SecurityStatus.message(for: status), in: language)
    }

    /// `KEYCHAIN_DEBUG`'s line for a failure: the status text, the status, and the engine's reason, in `language`
    /// (English for any part of the reason without a translation).
    package static func debugLine(for error: KeychainError, in language: MessageLanguage) -> String {
        let base = "\(message(for: error.status, in: language)) (OSStatus \(error.status))"
        return error.localizedReason(in: language).map { "\(base): \($0)" } ?? base
    }
}

/// A random number generator; only the default exists.
public typealias SecRandomRef = OpaquePointer

/// The default cryptographically secure generator.
nonisolated(unsafe) public let kSecRandomDefault: SecRandomRef? = nil

/// Fills `bytes` with `count` cryptographically secure random bytes.
/// - Parameters:
///   - rnd: pass `kSecRandomDefault`.
///   - count: the number of bytes.
///   - bytes: where to write them.
/// - Returns: `errSecSuccess`, or `errSecParam` for a negative count.
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count >= 0 else { return errSecParam }
    do {
        try SecureRandom.fill(UnsafeMutableRawBufferPointer(start: bytes, count: count))
        return errSecSuccess
    } catch {
        return errSecInternalComponent
    }
}
