import Foundation
import LocalAuthentication
import Testing

/// `LAError` as Apple's bridged error: made from an `NSError` of its domain (`init(_nsError:)`, which libraries
/// call to rethrow what the system reported), with a user info of any values, as `NSError`s carry them.
@Suite struct LAErrorBridgingTests {
    @Test func anErrorMadeFromAnNSErrorKeepsItsCodeAndUserInfo() throws {
        let underlying = NSError(domain: "NSOSStatusErrorDomain", code: -25300)
        let reported = NSError(
            domain: LAErrorDomain, code: LAError.authenticationFailed.rawValue,
            userInfo: [NSLocalizedFailureReasonErrorKey: "no private key", NSUnderlyingErrorKey: underlying])
        let error = LAError(_nsError: reported)
        #expect(error.code == .authenticationFailed)
        #expect(error.userInfo[NSLocalizedFailureReasonErrorKey] as? String == "no private key")
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == -25300)
        let bridged = error as NSError
        #expect(bridged.domain == LAErrorDomain)
        #expect(bridged.code == -1)
        #expect((bridged.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == -25300)
        #expect(bridged.localizedDescription == "Application retry limit exceeded.")
    }

    @Test func aUserInfoOfAnyValuesAndEquality() {
        let first = LAError(.userCancel, userInfo: ["attempt": 2])
        #expect(first.userInfo["attempt"] as? Int == 2)
        #expect(first == LAError(.userCancel, userInfo: ["attempt": 2]))
        #expect(first != LAError(.userCancel, userInfo: ["attempt": 3]))
        #expect(first != LAError(.appCancel, userInfo: ["attempt": 2]))
        #expect(Set([first, LAError(.userCancel, userInfo: ["attempt": 2])]).count == 1)
        #expect(LAError(.userCancel).userInfo.isEmpty)
    }
}
