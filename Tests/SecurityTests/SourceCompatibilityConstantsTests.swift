import Foundation
import KeychainCore
import Security
import Testing

/// Names iOS code uses that the keychain itself never produces, found compiling real libraries: every result
/// code of SecBase.h, the token access group, and `FourCharCode`.
@Suite struct SourceCompatibilityConstantsTests {
    @Test func everyResultCodeOfSecBaseHasApplesValue() {
        #expect(errSecOpWr == -49)
        #expect(errSecInteractionRequired == -25315)
        #expect(errSecKeySizeNotAllowed == -25311)
        #expect(errSecPkcs12VerifyFailure == -25264)
        #expect(errSecInvalidCertificateRef == -67690)
        #expect(errSecRestrictedAPI == -34020)
        #expect(errSecCertificateValidityPeriodTooLong == -67901)
        // The iOS 18 SDK's corrected spellings beside the old ones, and its two newest codes.
        #expect(errSecInvalidCRLAuthority == errSecInvaldCRLAuthority)
        #expect(errSecInvalidTupleCredentials == errSecInvalidTupleCredendtials)
        #expect(errSecCertificateDuplicateExtension == -67903)
        #expect(errSecMissingQualifiedCertStatement == -67904)
    }

    @Test func aCodeTheKeychainNeverReturnsIsNamedByItsMessage() {
        #expect(
            SecCopyErrorMessageString(errSecInvalidCertificateRef, nil) as String?
                == "errSecInvalidCertificateRef (OSStatus -67690)")
        #expect(
            SecCopyErrorMessageString(errSecPkcs12VerifyFailure, nil) as String?
                == "errSecPkcs12VerifyFailure (OSStatus -25264)")
        // Codes the keychain returns keep their messages; one Apple gives none still reads as on Apple's systems.
        #expect(
            SecCopyErrorMessageString(errSecItemNotFound, nil) as String?
                == "The specified item could not be found in the keychain.")
        #expect(SecCopyErrorMessageString(errSecCoreFoundationUnknown, nil) as String? == "OSStatus -4960")
        #expect(
            SecCopyErrorMessageString(errSecMobileMeServerError, nil) as String?
                == "errSecMobileMeServerError (OSStatus -67659)")
        #expect(
            SecCopyErrorMessageString(errSecMissingQualifiedCertStatement, nil) as String?
                == "errSecMissingQualifiedCertStatement (OSStatus -67904)")
        #expect(
            SecCopyErrorMessageString(errSecInvalidCRLAuthority, nil) as String?
                == "errSecInvalidCRLAuthority (OSStatus -67827)")
        #expect(SecCopyErrorMessageString(-1, nil) as String? == "OSStatus -1")
    }

    @Test func fourCharCodesAreThe32BitCodesOfKeychainAttributes() {
        let creator: FourCharCode = 0x6170_706C  // 'appl'
        let type: OSType = creator
        #expect(MemoryLayout<FourCharCode>.size == 4 && type == creator)
    }

    @Test func theTokenGroupIsReadableAndEmptyButNotWritable() throws {
        try withFreshKeychain {
            #expect(kSecAttrAccessGroupToken as String == "com.apple.token")
            #expect(kSecAttrAccessGroupToken as String == CallerIdentity.tokenAccessGroup)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "test",
                kSecAttrAccessGroup as String: kSecAttrAccessGroupToken,
            ]
            // As on iOS with tokens: items of external tokens (smart cards) are read there, and there are none.
            #expect(SecItemCopyMatching(query as CFDictionary, nil) == errSecItemNotFound)
            var add = query
            add[kSecValueData as String] = Data("x".utf8)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecMissingEntitlement)
            #expect(SecItemDelete(query as CFDictionary) == errSecMissingEntitlement)
        }
    }
}
