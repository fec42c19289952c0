import Foundation
import KeychainCore
import KeychainTestSupport
import LocalAuthentication
import Security
import Testing

/// Runs `body` with a fresh keychain installed for this task: passcode "1234" (unless `passcode` is nil, with
/// a 2 ms derivation), the simulated sensor enrolled (unless `enrolled` is false), a hand-moved clock, and
/// `owner` answering device-owner prompts that have no script (with none, `ownerHelperMissing` says whether
/// the helper was meant to and is not installed).
func withAuthenticatingKeychain<R>(
    passcode: String? = "1234", enrolled: Bool = true, owner: SystemOwnerAuthentication? = nil,
    ownerHelperMissing: Bool = false, fingerprintReader: SystemFingerprintReader? = nil,
    _ body: (Keychain, TestClock) async throws -> R
) async throws -> R {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ac-test-\(UUID().uuidString)")
    let clock = TestClock()
    var configuration = KeychainConfiguration(
        home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]),
        clock: { clock.now })
    configuration.passcodeDerivationTarget = 0.002
    configuration.ownerAuthentication = owner
    configuration.ownerHelperMissing = ownerHelperMissing
    configuration.fingerprintReader = fingerprintReader
    let keychain = try Keychain(configuration: configuration)
    defer {
        keychain.simulateRestart()
        keychain.close()
        try? FileManager.default.removeItem(at: home)
    }
    if let passcode { try keychain.setPasscode(Secret(Array(passcode.utf8))) }
    if enrolled { try keychain.authenticators.biometry.enroll() }
    return try await SecurityRuntime.withKeychain(keychain) { try await body(keychain, clock) }
}

/// The `LAError` code an evaluation of `policy` ends with; nil on success.
func evaluationCode(_ context: LAContext, _ policy: LAPolicy, reason: String = "test") async -> LAError.Code? {
    do {
        _ = try await context.evaluatePolicy(policy, localizedReason: reason)
        return nil
    } catch let error as LAError {
        return error.code
    } catch {
        Issue.record("not an LAError: \(error)")
        return nil
    }
}

/// The `LAError` code `canEvaluatePolicy` reports; nil when the policy can be evaluated.
func availabilityCode(_ context: LAContext, _ policy: LAPolicy) -> Int? {
    var error: NSError?
    return context.canEvaluatePolicy(policy, error: &error) ? nil : error?.code
}

/// Adds generic password `account` of `service` with `secret`, its secret protected by `flags` (class
/// WhenPasscodeSetThisDeviceOnly), or plain when `flags` is nil. - Returns: SecItemAdd's status.
func addPassword(
    _ account: String, service: String, secret: String, flags: SecAccessControlCreateFlags?
) -> OSStatus {
    var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
        kSecAttrAccount as String: account, kSecValueData as String: Data(secret.utf8),
    ]
    if let flags {
        var error: Unmanaged<CFError>?
        query[kSecAttrAccessControl as String] = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, &error)
    }
    return SecItemAdd(query as CFDictionary, nil)
}

/// Reads the secret of generic password `account` of `service`, with `extra` in the query (a prompt, a UI
/// policy). - Returns: SecItemCopyMatching's status and the secret as text.
func readPassword(_ account: String, service: String, extra: [String: Any] = [:]) -> (OSStatus, String?) {
    var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
        kSecAttrAccount as String: account, kSecReturnData as String: true,
    ]
    query.merge(extra) { $1 }
    var result: AnyObject?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    return (status, (result as? Data).map { String(decoding: $0, as: UTF8.self) })
}
