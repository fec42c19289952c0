import Foundation
import KeychainCore
import LocalAuthentication
import Testing

@Suite struct LAContextEvaluationTests {
    private func code(_ context: LAContext, _ policy: LAPolicy) -> Int? {
        var error: NSError?
        return context.canEvaluatePolicy(policy, error: &error) ? nil : error?.code
    }

    @Test func availabilityFollowsEnrollmentAndPasscode() async throws {
        try await withAuthenticatingKeychain(passcode: nil, enrolled: false) { keychain, _ in
            let context = LAContext()
            #expect(code(context, .deviceOwnerAuthenticationWithBiometrics) == LAError.passcodeNotSet.rawValue)
            #expect(code(context, .deviceOwnerAuthentication) == LAError.passcodeNotSet.rawValue)
            #expect(context.biometryType == .touchID)
            try keychain.setPasscode(Secret(Array("1234".utf8)))
            #expect(code(context, .deviceOwnerAuthenticationWithBiometrics) == LAError.biometryNotEnrolled.rawValue)
            #expect(code(context, .deviceOwnerAuthentication) == nil)
            #expect(context.evaluatedPolicyDomainState == nil)
            try keychain.authenticators.biometry.enroll()
            #expect(code(context, .deviceOwnerAuthenticationWithBiometrics) == nil)
            #expect(code(context, .deviceOwnerAuthenticationWithWatch) == LAError.Code.watchNotAvailable.rawValue)
            let first = try #require(context.evaluatedPolicyDomainState)
            try keychain.authenticators.biometry.changeEnrollment()
            _ = code(context, .deviceOwnerAuthenticationWithBiometrics)
            #expect(context.evaluatedPolicyDomainState != first)
        }
    }

    @Test func scriptedOutcomesMapToLAErrors() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let biometry = keychain.authenticators.biometry
            try biometry.script(.match, .noMatch, .cancel, .fallback)
            let context = LAContext()
            let policy = LAPolicy.deviceOwnerAuthenticationWithBiometrics
            #expect(try await context.evaluatePolicy(policy, localizedReason: "test"))
            for expected in [LAError.authenticationFailed, .userCancel, .userFallback, .userCancel] {
                do {
                    _ = try await context.evaluatePolicy(policy, localizedReason: "test")
                    Issue.record("expected \(expected)")
                } catch let error as LAError {
                    #expect(error.code == expected)
                }
            }
        }
    }

    @Test func fiveFailedMatchesLockOutUntilThePasscode() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let authenticators = keychain.authenticators
            try authenticators.biometry.script(.noMatch, .noMatch, .noMatch, .noMatch, .noMatch, .match)
            let context = LAContext()
            for _ in 0..<5 {
                await #expect(throws: LAError(.authenticationFailed)) {
                    try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "t")
                }
            }
            #expect(code(context, .deviceOwnerAuthenticationWithBiometrics) == LAError.biometryLockout.rawValue)
            await #expect(throws: LAError(.biometryLockout)) {
                try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "t")
            }
            // The passcode policy still works, and a right passcode ends the lockout.
            authenticators.passcodePrompt.enter("0000")
            await #expect(throws: LAError(.authenticationFailed)) {
                try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "t")
            }
            authenticators.passcodePrompt.enter("1234")
            #expect(try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "t"))
            #expect(code(context, .deviceOwnerAuthenticationWithBiometrics) == nil)
            #expect(try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "t"))
        }
    }

    @Test func callbackEvaluationInteractionAndInvalidation() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            try keychain.authenticators.biometry.script(.match, .match)
            let context = LAContext()
            let outcome: (Bool, Int?) = await withCheckedContinuation { continuation in
                context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "t") { ok, error in
                    continuation.resume(returning: (ok, (error as? LAError)?.code.rawValue))
                }
            }
            #expect(outcome.0 && outcome.1 == nil)
            context.interactionNotAllowed = true
            await #expect(throws: LAError(.notInteractive)) {
                try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "t")
            }
            #expect(try keychain.authenticators.biometry.status().script == [.match])
            context.invalidate()
            #expect(code(context, .deviceOwnerAuthentication) == LAError.invalidContext.rawValue)
            context.touchIDAuthenticationAllowableReuseDuration = 10_000
            #expect(context.touchIDAuthenticationAllowableReuseDuration == 300)
            #expect(!context.isCredentialSet(.applicationPassword))
            context.setCredential(Data("pw".utf8), type: .applicationPassword)
            #expect(context.isCredentialSet(.applicationPassword))
            // There are no smart cards: their PIN is never taken, and the application password stays.
            #expect(!context.setCredential(Data("1234".utf8), type: .smartCardPIN))
            #expect(!context.isCredentialSet(.smartCardPIN))
            #expect(context.isCredentialSet(.applicationPassword))
        }
    }

    @Test func unenrollAndEmptyScript() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let context = LAContext()
            await #expect(throws: LAError(.userCancel)) {
                try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "t")
            }
            try keychain.authenticators.biometry.unenroll()
            #expect(code(context, .deviceOwnerAuthenticationWithBiometrics) == LAError.biometryNotEnrolled.rawValue)
            let status = try keychain.authenticators.biometry.status()
            #expect(!status.isEnrolled && status.domainState == nil)
        }
    }
}
