import LocalAuthentication
import Testing

// This file imports LocalAuthentication and not Foundation: Apple's LocalAuthentication module re-exports
// Foundation (LAContext.h imports it), so iOS code that imports it alone names NSError, Data and Date.
@Suite struct LocalAuthenticationFoundationTests {
    @Test func foundationComesWithLocalAuthentication() throws {
        try withFreshKeychain {
            let context = LAContext()
            var error: NSError?
            // A fresh keychain has no passcode: Apple's answer for a device without one.
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
            #expect(error?.code == LAError.passcodeNotSet.rawValue)
            let state: Data? = context.evaluatedPolicyDomainState
            #expect(state == nil || state?.isEmpty == false)
            #expect(Date().timeIntervalSince1970 > 0)
        }
    }
}
