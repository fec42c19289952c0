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

    /// `LAError.Code` is an enumeration of `Int`, as Swift imports Apple's: the patterns iOS code is written with
    /// compile and behave the same (a failable `init(rawValue:)`, an exhaustive switch, `@unknown default`).
    @Test func theCodeIsAnEnumerationAsOnIOS() {
        func kind(of code: Int) -> String {
            guard let known = LAError.Code(rawValue: code) else { return "unknown" }
            switch known {
            case .userCancel, .appCancel, .systemCancel: return "cancel"
            case .userFallback: return "fallback"
            case .authenticationFailed, .passcodeNotSet, .biometryNotAvailable, .biometryNotEnrolled,
                .biometryLockout, .invalidContext, .companionNotAvailable, .biometryNotPaired, .biometryDisconnected,
                .invalidDimensions, .notInteractive:
                return "failure"
            @unknown default: return "new"
            }
        }
        #expect(kind(of: -2) == "cancel")
        #expect(kind(of: -3) == "fallback")
        #expect(kind(of: -1004) == "failure")
        #expect(kind(of: -99) == "unknown")
        #expect(LAError.Code.watchNotAvailable == .companionNotAvailable)
        // An NSError of the domain with a code LocalAuthentication does not define keeps that code.
        let odd = LAError(_nsError: NSError(domain: LAErrorDomain, code: -99))
        #expect((odd as NSError).code == -99)
        #expect(odd.errorCode == -99)
    }
}
