import Foundation
import LocalAuthentication
import Testing

@Suite struct LocalAuthenticationTests {
    @Test func noPasscodeInAFreshKeychain() async throws {
        try await withAuthenticatingKeychain(passcode: nil, enrolled: false) { _, _ in try await noPasscode() }
    }

    private func noPasscode() async throws {
        let context = LAContext()
        var error: NSError?
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        #expect(error?.code == LAError.passcodeNotSet.rawValue)
        #expect(error?.domain == LAErrorDomain)
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        #expect(error?.code == LAError.Code.passcodeNotSet.rawValue)
        #expect(context.biometryType == .touchID)
        context.touchIDAuthenticationAllowableReuseDuration = 10_000
        #expect(
            context.touchIDAuthenticationAllowableReuseDuration == LATouchIDAuthenticationMaximumAllowableReuseDuration)
        do {
            _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "test")
            Issue.record("evaluation succeeded without biometry")
        } catch LAError.passcodeNotSet {
        }
        context.invalidate()
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        #expect(error?.code == LAError.invalidContext.rawValue)
    }
}
