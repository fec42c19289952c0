import Foundation
import KeychainCore
import KeychainMessages

// Status codes of SecBase.h, with Apple's values.

public let errSecSuccess: OSStatus = 0
public let errSecUnimplemented: OSStatus = -4
public let errSecDiskFull: OSStatus = -34
public let errSecIO: OSStatus = -36
public let errSecParam: OSStatus = -50
public let errSecWrPerm: OSStatus = -61
public let errSecAllocate: OSStatus = -108
public let errSecUserCanceled: OSStatus = -128
public let errSecBadReq: OSStatus = -909
public let errSecInternalComponent: OSStatus = -2070
public let errSecCoreFoundationUnknown: OSStatus = -4960
public let errSecNotAvailable: OSStatus = -25291
public let errSecReadOnly: OSStatus = -25292
public let errSecAuthFailed: OSStatus = -25293
public let errSecNoSuchKeychain: OSStatus = -25294
public let errSecInvalidKeychain: OSStatus = -25295
public let errSecDuplicateKeychain: OSStatus = -25296
public let errSecDuplicateItem: OSStatus = -25299
public let errSecItemNotFound: OSStatus = -25300
public let errSecBufferTooSmall: OSStatus = -25301
public let errSecDataTooLarge: OSStatus = -25302
public let errSecNoSuchAttr: OSStatus = -25303
public let errSecInvalidItemRef: OSStatus = -25304
public let errSecInvalidSearchRef: OSStatus = -25305
public let errSecNoSuchClass: OSStatus = -25306
public let errSecNoDefaultKeychain: OSStatus = -25307
public let errSecInteractionNotAllowed: OSStatus = -25308
public let errSecReadOnlyAttr: OSStatus = -25309
public let errSecNoAccessForItem: OSStatus = -25243
public let errSecDataNotAvailable: OSStatus = -25316
public let errSecDataNotModifiable: OSStatus = -25317
public let errSecDecode: OSStatus = -26275
public let errSecMissingEntitlement: OSStatus = -34018
public let errSecVerifyFailed: OSStatus = -67808
public let errSecNotTrusted: OSStatus = -67843
public let errSecInvalidOwnerEdit: OSStatus = -25244

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
        StatusMessages.text(for: status, english: SecurityStatus.message(for: status), in: language)
    }

    /// `KEYCHAIN_DEBUG`'s line for a failure: the status text in `language`, the status, and the engine's reason
    /// (which is in English).
    package static func debugLine(for error: KeychainError, in language: MessageLanguage) -> String {
        let base = "\(message(for: error.status, in: language)) (OSStatus \(error.status))"
        return error.reason.map { "\(base): \($0)" } ?? base
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
