import Foundation
import KeychainCore
import LocalAuthentication
import Testing

/// iOS 18's `LAContext.domainState`: the enrolled biometry and the paired companions, each with a state hash that
/// changes when they do and is nil when there is nothing.
@Suite struct LADomainStateTests {
    @Test func biometryAndCompanionFollowEnrollmentAndPairing() async throws {
        try await withAuthenticatingKeychain(passcode: "1234", enrolled: false) { keychain, _ in
            let context = LAContext()
            let empty = context.domainState
            #expect(empty.biometry.biometryType == .touchID)
            #expect(empty.biometry.stateHash == nil)
            #expect(empty.companion.availableCompanionTypes.isEmpty)
            #expect(empty.companion.stateHash == nil)
            #expect(empty.stateHash == nil)

            try keychain.authenticators.biometry.enroll()
            let enrolled = context.domainState
            let biometryHash = try #require(enrolled.biometry.stateHash)
            // The same value evaluatedPolicyDomainState gives after a check.
            var error: NSError?
            #expect(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
            #expect(context.evaluatedPolicyDomainState == biometryHash)
            let combinedWithBiometry = try #require(enrolled.stateHash)
            #expect(context.domainState.stateHash == combinedWithBiometry)  // nothing changed: the same hash

            try keychain.authenticators.companion.pair()
            let paired = context.domainState
            #expect(paired.companion.availableCompanionTypes == [.watch])
            let companionHash = try #require(paired.companion.stateHash)
            let watchHash = try #require(paired.companion.stateHash(for: .watch))
            #expect(context.domainState.companion.stateHash(for: .watch) == watchHash)  // stable while paired
            #expect(context.domainState.companion.stateHash == companionHash)
            #expect(paired.companion.stateHash(for: .mac) == nil)
            #expect(paired.biometry.stateHash == biometryHash)
            #expect(paired.stateHash != nil && paired.stateHash != combinedWithBiometry)

            try keychain.authenticators.biometry.changeEnrollment()
            let changed = context.domainState
            #expect(changed.biometry.stateHash != biometryHash)
            #expect(changed.companion.stateHash == companionHash)
            #expect(changed.stateHash != paired.stateHash)

            try keychain.authenticators.companion.unpair()
            let unpaired = context.domainState
            #expect(unpaired.companion.availableCompanionTypes.isEmpty)
            #expect(unpaired.companion.stateHash == nil)
        }
    }

    /// Apple: `evaluatedPolicyDomainState` has a value only after `canEvaluatePolicy` succeeded for a biometric
    /// policy, or a biometric match; a failed check or a passcode-only evaluation leaves it nil.
    @Test func theEvaluatedDomainStateComesOnlyFromABiometricSuccess() async throws {
        try await withAuthenticatingKeychain(passcode: "1234", enrolled: true) { keychain, _ in
            var error: NSError?
            // A failed check, of a policy that is not biometric.
            let unpaired = LAContext()
            #expect(!unpaired.canEvaluatePolicy(.deviceOwnerAuthenticationWithCompanion, error: &error))
            #expect(unpaired.evaluatedPolicyDomainState == nil)
            // A success by the passcode, the user having chosen the fallback at the biometric prompt.
            let byPasscode = LAContext()
            try keychain.authenticators.biometry.script(.fallback)
            keychain.authenticators.passcodePrompt.enter("1234")
            #expect(try await byPasscode.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "passcode"))
            #expect(byPasscode.evaluatedPolicyDomainState == nil)
            // A biometric evaluation that fails: its check passed, but no match came.
            let canceled = LAContext()
            try keychain.authenticators.biometry.script(.cancel)
            await #expect(throws: LAError.self) {
                try await canceled.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "no")
            }
            #expect(canceled.evaluatedPolicyDomainState == nil)
            // A biometric check that succeeds.
            let checked = LAContext()
            #expect(checked.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
            #expect(checked.evaluatedPolicyDomainState != nil)
        }
    }

    /// iOS 18's companion names of the watch policies and error: the same values (`LAPublicDefines.h` defines
    /// kLAErrorCompanionNotAvailable as kLAErrorWatchNotAvailable).
    @Test func companionPoliciesAreTheWatchPolicies() async throws {
        #expect(LAPolicy.deviceOwnerAuthenticationWithCompanion.rawValue == 3)
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometricsOrCompanion.rawValue == 4)
        #expect(LAError.companionNotAvailable.rawValue == -11)
        #expect(LAError.Code.companionNotAvailable == LAError.Code.watchNotAvailable)
        try await withAuthenticatingKeychain(passcode: "1234", enrolled: false) { keychain, _ in
            let context = LAContext()
            var error: NSError?
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithCompanion, error: &error))
            #expect(error?.code == LAError.watchNotAvailable.rawValue)
            try keychain.authenticators.companion.pair()
            #expect(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithCompanion, error: &error))
            #expect(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometricsOrCompanion, error: &error))
        }
    }

    @Test func companionTypesHaveApplesValues() {
        #expect(LACompanionType.watch.rawValue == 1)
        #expect(LACompanionType.mac.rawValue == 2)
        #expect(LACompanionType.vision.rawValue == 4)
    }
}
