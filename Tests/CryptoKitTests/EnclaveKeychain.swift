import Foundation
import KeychainCore
import KeychainTestSupport
import Security

/// Runs `body` with a fresh keychain installed for this task (so SecureEnclave keys and `LAContext` use it):
/// passcode "1234" unless `passcode` is nil, the simulated sensor enrolled unless `enrolled` is false, a clock
/// moved by hand, and no system prompt (an unscripted passcode prompt is a cancel).
func withEnclaveKeychain<R>(
    passcode: String? = "1234", enrolled: Bool = true, _ body: (Keychain, TestClock) async throws -> R
) async throws -> R {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("enclave-test-\(UUID().uuidString)")
    let clock = TestClock()
    var configuration = KeychainConfiguration(
        home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]),
        clock: { clock.now })
    configuration.passcodeDerivationTarget = 0.002
    let keychain = try Keychain(configuration: configuration)
    defer {
        keychain.close()
        try? FileManager.default.removeItem(at: home)
    }
    if let passcode { try keychain.setPasscode(Secret(Array(passcode.utf8))) }
    if enrolled { try keychain.authenticators.biometry.enroll() }
    return try await SecurityRuntime.withKeychain(keychain) { try await body(keychain, clock) }
}

/// ``withEnclaveKeychain(passcode:enrolled:_:)`` for synchronous tests.
func withEnclaveKeychain<R>(
    passcode: String? = "1234", enrolled: Bool = true, _ body: (Keychain, TestClock) throws -> R
) throws -> R {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("enclave-test-\(UUID().uuidString)")
    let clock = TestClock()
    var configuration = KeychainConfiguration(
        home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]),
        clock: { clock.now })
    configuration.passcodeDerivationTarget = 0.002
    let keychain = try Keychain(configuration: configuration)
    defer {
        keychain.close()
        try? FileManager.default.removeItem(at: home)
    }
    if let passcode { try keychain.setPasscode(Secret(Array(passcode.utf8))) }
    if enrolled { try keychain.authenticators.biometry.enroll() }
    return try SecurityRuntime.withKeychain(keychain) { try body(keychain, clock) }
}
