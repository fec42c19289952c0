import Foundation
import KeychainCore
import LocalAuthentication
import Security
import Testing

/// iOS 16's `LARight`: a grant the user gives by meeting a requirement, evaluated on a context of its own.
@Suite struct LARightTests {
    @Test func aRightIsGrantedWhenTheUserAuthenticates() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            try keychain.authenticators.biometry.script(.match, .noMatch)
            let right = LARight()  // the default requirement: biometry, falling back to the passcode
            #expect(right.state == .unknown)
            #expect(right.tag == 0)
            right.tag = 7
            #expect(right.tag == 7)
            try await right.authorize(localizedReason: "test")
            #expect(right.state == .authorized)
            // Authorized: asking again does not ask the user (the queued no-match stays queued).
            try await right.authorize(localizedReason: "test")
            #expect(right.state == .authorized)
            await right.deauthorize()
            #expect(right.state == .notAuthorized)
            keychain.authenticators.passcodePrompt.enter("0000")
            await #expect(throws: LAError(.authenticationFailed)) { try await right.authorize(localizedReason: "t") }
            #expect(right.state == .notAuthorized)
        }
    }

    @Test func theDefaultRequirementFallsBackToThePasscode() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            try keychain.authenticators.biometry.script(.fallback)
            keychain.authenticators.passcodePrompt.enter("1234")
            let right = LARight(requirement: .default)
            try await right.authorize(localizedReason: "test")
            #expect(right.state == .authorized)
            // A biometric requirement ends with the app's own fallback, with or without `.default` named.
            for requirement in [LAAuthenticationRequirement.biometry, .biometry(fallback: .default)] {
                try keychain.authenticators.biometry.script(.fallback)
                await #expect(throws: LAError(.userFallback)) {
                    try await LARight(requirement: requirement).authorize(localizedReason: "t")
                }
            }
            try keychain.authenticators.biometry.script(.fallback)
            keychain.authenticators.passcodePrompt.enter("1234")
            let withPasscode = LARight(requirement: .biometry(fallback: .devicePasscode))
            try await withPasscode.authorize(localizedReason: "test")
            #expect(withPasscode.state == .authorized)
        }
    }

    @Test func checkCanAuthorizeSaysWhyNot() async throws {
        try await withAuthenticatingKeychain(passcode: nil, enrolled: false) { keychain, _ in
            #expect(await laErrorCode { try await LARight().checkCanAuthorize() } == .passcodeNotSet)
            try keychain.setPasscode(Secret(Array("1234".utf8)))
            try await LARight().checkCanAuthorize()
            #expect(
                await laErrorCode { try await LARight(requirement: .biometry).checkCanAuthorize() }
                    == .biometryNotEnrolled)
            try keychain.authenticators.biometry.enroll()
            try await LARight(requirement: .biometry).checkCanAuthorize()
            let error: (any Error)? = await withCheckedContinuation { continuation in
                LARight(requirement: .biometry).checkCanAuthorize { continuation.resume(returning: $0) }
            }
            #expect(error == nil)
        }
    }

    @Test func aCurrentSetRightIsNotGrantedAfterTheEnrollmentChanged() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let right = LARight(requirement: .biometryCurrentSet)
            try right.checkCanAuthorizeNow()
            try keychain.authenticators.biometry.changeEnrollment()
            let changed = #expect(throws: LAError.self) { try right.checkCanAuthorizeNow() }
            #expect(changed?.code == .authenticationFailed)
            try keychain.authenticators.biometry.script(.match)
            #expect(await laErrorCode { try await right.authorize(localizedReason: "test") } == .authenticationFailed)
            #expect(right.state == .notAuthorized)
            // A right made now binds the new set.
            try keychain.authenticators.biometry.script(.match)
            let fresh = LARight(requirement: .biometryCurrentSet)
            try await fresh.authorize(localizedReason: "test")
            #expect(fresh.state == .authorized)
        }
    }

    @Test func theCompletionHandlerAuthorizes() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            try keychain.authenticators.biometry.script(.cancel)
            let right = LARight(requirement: .biometry)
            let error: (any Error)? = await withCheckedContinuation { continuation in
                right.authorize(localizedReason: "test") { continuation.resume(returning: $0) }
            }
            #expect((error as? LAError)?.code == .userCancel)
            #expect(right.state == .notAuthorized)
        }
    }

    @Test func requirementsCompareByWhatTheyAsk() {
        #expect(LAAuthenticationRequirement.biometry == LAAuthenticationRequirement.biometry(fallback: .default))
        #expect(LAAuthenticationRequirement.default == LAAuthenticationRequirement.biometry(fallback: .devicePasscode))
        #expect(LAAuthenticationRequirement.biometry != LAAuthenticationRequirement.biometryCurrentSet)
        #expect(LARight.State.notAuthorized.rawValue == 3)
    }
}

/// The code of the `LAError` `body` throws; nil when it throws none (or another error).
func laErrorCode(_ body: () async throws -> Void) async -> LAError.Code? {
    do {
        try await body()
        return nil
    } catch {
        return (error as? LAError)?.code
    }
}

extension LARight {
    /// `checkCanAuthorize` from synchronous code.
    fileprivate func checkCanAuthorizeNow() throws {
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: (any Error)?
        checkCanAuthorize { error in
            outcome = error
            semaphore.signal()
        }
        semaphore.wait()
        if let outcome { throw outcome }
    }
}
