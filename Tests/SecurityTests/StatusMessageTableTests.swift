import Foundation
import Security
import Testing

/// Every status the face declares has Apple's message from the one table (SecBase.h gives
/// errSecCoreFoundationUnknown none, so it reads "OSStatus -4960" there too).
@Suite struct StatusMessageTableTests {
    @Test func everyDeclaredStatusHasAMessage() {
        let declared: [OSStatus] = [
            errSecSuccess, errSecUnimplemented, errSecDiskFull, errSecIO, errSecParam, errSecWrPerm, errSecAllocate,
            errSecUserCanceled, errSecBadReq, errSecInternalComponent, errSecNotAvailable, errSecReadOnly,
            errSecAuthFailed, errSecNoSuchKeychain, errSecInvalidKeychain, errSecDuplicateKeychain,
            errSecDuplicateItem, errSecItemNotFound, errSecBufferTooSmall, errSecDataTooLarge, errSecNoSuchAttr,
            errSecInvalidItemRef, errSecInvalidSearchRef, errSecNoSuchClass, errSecNoDefaultKeychain,
            errSecInteractionNotAllowed, errSecReadOnlyAttr, errSecNoAccessForItem, errSecDataNotAvailable,
            errSecDataNotModifiable, errSecDecode, errSecMissingEntitlement, errSecVerifyFailed, errSecNotTrusted,
            errSecInvalidOwnerEdit,
        ]
        for status in declared {
            let message = SecCopyErrorMessageString(status, nil) as String?
            #expect(message?.hasPrefix("OSStatus") == false, "\(status) has no message")
        }
        #expect(SecCopyErrorMessageString(errSecWrPerm, nil) as String? == "Write permissions error.")
        #expect(SecCopyErrorMessageString(errSecCoreFoundationUnknown, nil) as String? == "OSStatus -4960")
    }
}
