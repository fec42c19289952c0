import Foundation
import LocalAuthentication
import Security
import Testing

/// A mock as iOS test suites write one: Apple declares `canEvaluatePolicy(_:error:)` with `NSErrorPointer`, so the
/// override and the protocol requirement name that type. This file imports both faces, which must not make the
/// name ambiguous.
private final class MockLAContext: LAContext {
    var answer = true

    override func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        if !answer { error?.pointee = NSError(domain: LAErrorDomain, code: LAError.biometryNotEnrolled.rawValue) }
        return answer
    }
}

/// The protocol an app puts in front of `LAContext` to swap in a fake.
private protocol PolicyEvaluating {
    func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool
}

extension LAContext: PolicyEvaluating {}

@Suite struct NSErrorPointerTests {
    @Test func aMockSubclassOverridesWithNSErrorPointer() throws {
        try withFreshKeychain {
            let mock = MockLAContext()
            var error: NSError?
            #expect(mock.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
            #expect(error == nil)
            mock.answer = false
            let asBase: LAContext = mock
            #expect(!asBase.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
            #expect(error?.code == LAError.biometryNotEnrolled.rawValue)
            #expect(mock.canEvaluatePolicy(.deviceOwnerAuthentication, error: nil) == false)
        }
    }

    @Test func lAContextConformsToAProtocolThatNamesNSErrorPointer() throws {
        try withFreshKeychain {
            let evaluator: any PolicyEvaluating = MockLAContext()
            var error: NSError?
            #expect(evaluator.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
            #expect(NSErrorPointerVisibility.fromLocalAuthenticationAlone(&error))
            #expect(NSErrorPointerVisibility.fromSecurityAlone(&error))
        }
    }
}
