import Foundation
import LocalAuthentication
import Testing

@Suite struct LocalAuthenticationTests {
    @Test func noBiometryAndNoPasscodeOnThisMachine() async throws {
        let context = LAContext()
        var error: NSError?
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        #expect(error?.code == LAError.biometryNotAvailable.rawValue)
        #expect(error?.domain == LAErrorDomain)
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        #expect(error?.code == LAError.Code.passcodeNotSet.rawValue)
        #expect(context.biometryType == .none)
        context.touchIDAuthenticationAllowableReuseDuration = 10_000
        #expect(context.touchIDAuthenticationAllowableReuseDuration == LATouchIDAuthenticationMaximumAllowableReuseDuration)
        do {
            _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "test")
            Issue.record("evaluation succeeded without biometry")
        } catch LAError.biometryNotAvailable {
        }
        context.invalidate()
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        #expect(error?.code == LAError.invalidContext.rawValue)
    }
}
