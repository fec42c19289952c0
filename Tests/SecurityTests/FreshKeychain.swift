import Foundation
import KeychainCore
import Security

/// Runs `body` with a fresh keychain of its own installed for this test's task.
func withFreshKeychain<R>(groups: [String] = ["TEAM1.com.example.app"], _ body: () throws -> R) throws -> R {
    try withFreshKeychainHandle(groups: groups) { _ in try body() }
}

/// Runs `body` with a fresh keychain of its own installed for this test's task, and handed to `body`: threads of
/// the test's own install it again (the installed keychain is the task's).
func withFreshKeychainHandle<R>(groups: [String] = ["TEAM1.com.example.app"], _ body: (Keychain) throws -> R) throws
    -> R
{
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("security-test-\(UUID().uuidString)")
    let keychain = try Keychain(
        configuration: KeychainConfiguration(
            home: home, identity: CallerIdentity(applicationIdentifier: groups.first, accessGroups: groups)))
    defer {
        keychain.close()
        try? FileManager.default.removeItem(at: home)
    }
    return try SecurityRuntime.withKeychain(keychain) { try body(keychain) }
}

/// Adds a generic password the way most apps do.
@discardableResult
func addPassword(service: String, account: String, secret: String, extra: [String: Any] = [:]) -> OSStatus {
    var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
        kSecValueData as String: Data(secret.utf8),
    ]
    query.merge(extra) { $1 }
    return SecItemAdd(query as CFDictionary, nil)
}
