import Foundation
import KeychainCore
import KeychainMessages
import LocalAuthentication
import Security
import Testing

/// The texts people read: `LAError`'s descriptions as iOS gives them, `SecCopyErrorMessageString` for every
/// status SecBase.h declares, and both in Japanese when the locale asks for it.
@Suite struct AppleTextsTests {
    static let laDescriptions: [(LAError.Code, String)] = [
        (.authenticationFailed, "Application retry limit exceeded."),
        (.userCancel, "Canceled by user."),
        (.userFallback, "Fallback authentication mechanism selected."),
        (.systemCancel, "UI canceled by system."),
        (.passcodeNotSet, "Passcode not set."),
        (.biometryNotAvailable, "Biometry is not available on this device."),
        (.biometryNotEnrolled, "No identities are enrolled."),
        (.biometryLockout, "Biometry is locked out."),
        (.appCancel, "Invalidated by client."),
        (.invalidContext, "Context has been invalidated."),
        (.watchNotAvailable, "Paired watch is not available."),
        (.biometryNotPaired, "Biometry accessory is not paired."),
        (.biometryDisconnected, "Biometry accessory is disconnected."),
        (.invalidDimensions, "Invalid dimensions of the embedded UI."),
        (.notInteractive, "User interaction is required."),
    ]

    @Test func everyLAErrorCodeHasIOSDescription() {
        for (code, english) in Self.laDescriptions {
            #expect(code.localizedDescription(in: .english) == english, "\(code.rawValue)")
            let japanese = code.localizedDescription(in: .japanese)
            #expect(japanese != nil && japanese != english, "\(code.rawValue)")
        }
        #expect(LAError.Code(rawValue: -99) == nil)
    }

    @Test func localizedDescriptionIsTheCodesTextInTheProcessLanguage() {
        let error: any Error = LAError(.passcodeNotSet)
        let expected = LAError.Code.passcodeNotSet.localizedDescription(in: .current)
        #expect(error.localizedDescription == expected)
        #expect((error as NSError).localizedDescription == expected)
        #expect((error as NSError).domain == LAErrorDomain && (error as NSError).code == -5)
        // A description given by the caller is kept.
        let given = LAError(.biometryNotAvailable, userInfo: [NSLocalizedDescriptionKey: "no reader"])
        #expect((given as NSError).localizedDescription == "no reader")
    }

    /// Every status SecBase.h describes (it gives errSecCoreFoundationUnknown no text, so that one stays
    /// "OSStatus -4960", as `StatusMessageTableTests` checks).
    @Test func everySecBaseStatusHasAppleText() {
        let statuses: [OSStatus] = [
            errSecSuccess, errSecUnimplemented, errSecDiskFull, errSecIO, errSecParam, errSecWrPerm, errSecAllocate,
            errSecUserCanceled, errSecBadReq, errSecInternalComponent,
            errSecNotAvailable, errSecReadOnly, errSecAuthFailed, errSecNoSuchKeychain, errSecInvalidKeychain,
            errSecDuplicateKeychain, errSecDuplicateItem, errSecItemNotFound, errSecBufferTooSmall,
            errSecDataTooLarge, errSecNoSuchAttr, errSecInvalidItemRef, errSecInvalidSearchRef, errSecNoSuchClass,
            errSecNoDefaultKeychain, errSecInteractionNotAllowed, errSecReadOnlyAttr, errSecNoAccessForItem,
            errSecDataNotAvailable, errSecDataNotModifiable, errSecDecode, errSecMissingEntitlement,
            errSecVerifyFailed, errSecNotTrusted, errSecInvalidOwnerEdit,
        ]
        for status in statuses {
            for language in MessageLanguage.allCases {
                let text = SecurityStatusText.message(for: status, in: language)
                #expect(!text.hasPrefix("OSStatus"), "\(status) \(language)")
            }
            #expect(
                SecurityStatusText.message(for: status, in: .japanese)
                    != SecurityStatusText.message(for: status, in: .english))
        }
        #expect(SecurityStatusText.message(for: errSecWrPerm, in: .english) == "Write permissions error.")
        #expect(
            SecurityStatusText.message(for: errSecItemNotFound, in: .japanese)
                == "指定した項目がキーチェーンに見つかりません。")
        #expect(SecurityStatusText.message(for: -12345, in: .japanese) == "OSStatus -12345")
        let current = SecurityStatusText.message(for: errSecItemNotFound, in: .current)
        #expect(SecCopyErrorMessageString(errSecItemNotFound, nil) as String? == current)
    }
}

@Suite struct DebugLineLanguageTests {
    @Test func keychainDebugLinesCarryTheStatusTextInTheLocalesLanguage() {
        let error = KeychainError.duplicateItem.because("an item with the same primary key exists")
        #expect(SecurityStatusText.debugLine(for: error, in: .english) == "\(error)")
        #expect(
            SecurityStatusText.debugLine(for: error, in: .japanese)
                == "指定した項目はすでにキーチェーンにあります。 (OSStatus -25299): "
                + "an item with the same primary key exists")
        #expect(
            SecurityStatusText.debugLine(for: KeychainError.itemNotFound, in: .japanese)
                == "指定した項目がキーチェーンに見つかりません。 (OSStatus -25300)")
    }
}
