import Foundation
import KeychainCore
import KeychainTestSupport
import LocalAuthentication
import Security
import Testing

/// Biometry through fprintd: `keychain-authenticate` talks D-Bus to a stand-in fprintd on a private bus, and
/// the person at a pseudo-terminal can cancel. The reader replaces the simulated sensor.
@Suite(.serialized) struct FingerprintReaderTests {
    private func reader(_ fprintd: PrivateFprintd, terminal: String) throws -> SystemFingerprintReader {
        let helper = try #require(SystemHelper.locate([:]), "keychain-authenticate is built beside the test bundle")
        return SystemFingerprintReader(helper: helper, bus: fprintd.address, terminal: terminal)
    }

    /// A keychain with passcode "1234" whose biometry is `fprintd`'s reader.
    private func withReader(
        _ fprintd: PrivateFprintd, terminal: String = "/nonexistent/tty",
        _ body: (Keychain) async throws -> Void
    ) async throws {
        let reader = try reader(fprintd, terminal: terminal)
        try await withAuthenticatingKeychain(enrolled: false, fingerprintReader: reader) { keychain, _ in
            try await body(keychain)
        }
    }

    private func canEvaluate(_ context: LAContext, _ policy: LAPolicy) -> Int? {
        availabilityCode(context, policy)
    }

    private func evaluate(_ context: LAContext) async -> LAError.Code? {
        await evaluationCode(context, .deviceOwnerAuthenticationWithBiometrics)
    }

    @Test func availabilityAndBiometryTypeFollowTheReader() async throws {
        let fprintd = try PrivateFprintd(fingers: ["right-index-finger"])
        defer { fprintd.stop() }
        try await withReader(fprintd) { _ in
            let context = LAContext()
            #expect(canEvaluate(context, .deviceOwnerAuthenticationWithBiometrics) == nil)
            #expect(context.biometryType == .touchID)
            let enrolled = try #require(context.evaluatedPolicyDomainState)

            try fprintd.enroll([])
            #expect(
                canEvaluate(context, .deviceOwnerAuthenticationWithBiometrics) == LAError.biometryNotEnrolled.rawValue)
            #expect(context.evaluatedPolicyDomainState == nil)

            try fprintd.setReaderPresent(false)
            #expect(
                canEvaluate(context, .deviceOwnerAuthenticationWithBiometrics) == LAError.biometryNotAvailable.rawValue)
            #expect(context.biometryType == .none)

            try fprintd.setReaderPresent(true)
            try fprintd.enroll(["right-index-finger"])
            #expect(canEvaluate(context, .deviceOwnerAuthenticationWithBiometrics) == nil)
            #expect(context.evaluatedPolicyDomainState != enrolled, "removing every finger was an enrollment change")
        }
    }

    @Test func verificationsGiveLocalAuthenticationsCodes() async throws {
        let fprintd = try PrivateFprintd(fingers: ["left-thumb"])
        defer { fprintd.stop() }
        let user = try TerminalUser()
        try await withReader(fprintd, terminal: user.path) { _ in
            let context = LAContext()
            try fprintd.queue("verify-retry-scan", "verify-match")
            #expect(await evaluate(context) == nil)
            try fprintd.queue("verify-no-match")
            #expect(await evaluate(context) == .authenticationFailed)
            // Nothing touches the reader; the user presses Enter at the (next) prompt.
            user.drain()
            user.answer([""], at: "(Enter cancels).\r\n")
            #expect(await evaluate(context) == .userCancel)
            #expect(user.transcript().contains("Place a finger on the fingerprint reader"))
        }
    }

    @Test func anEnrollmentChangeEndsBiometryCurrentSetItemsButNotBiometryAny() async throws {
        let fprintd = try PrivateFprintd(fingers: ["right-index-finger"])
        defer { fprintd.stop() }
        let user = try TerminalUser()
        try await withReader(fprintd, terminal: user.path) { _ in
            func add(_ account: String, _ flags: SecAccessControlCreateFlags) -> OSStatus {
                addPassword(account, service: "com.app.finger", secret: "secret-\(account)", flags: flags)
            }
            func read(_ account: String) -> OSStatus {
                readPassword(account, service: "com.app.finger").0
            }
            #expect(add("current", .biometryCurrentSet) == errSecSuccess)
            #expect(add("any", .biometryAny) == errSecSuccess)
            try fprintd.queue("verify-match", "verify-match")
            #expect(read("current") == errSecSuccess)
            #expect(read("any") == errSecSuccess)

            // fprintd restarting changes nothing: the same fingers are the same set.
            fprintd.stopService()
            try fprintd.start()
            try fprintd.queue("verify-match")
            #expect(read("current") == errSecSuccess)

            try fprintd.enroll(["right-index-finger", "left-index-finger"])
            try fprintd.queue("verify-match", "verify-match")
            #expect(read("current") == errSecAuthFailed, "bound to the enrolled set that no longer exists")
            #expect(read("any") == errSecSuccess)
        }
    }

    @Test func aReaderThatDoesNotAnswerIsNotAvailable() async throws {
        let fprintd = try PrivateFprintd(fingers: ["right-index-finger"])
        defer { fprintd.stop() }
        try await withReader(fprintd) { _ in
            fprintd.stopService()
            let context = LAContext()
            #expect(
                canEvaluate(context, .deviceOwnerAuthenticationWithBiometrics) == LAError.biometryNotAvailable.rawValue)
        }
    }
}
