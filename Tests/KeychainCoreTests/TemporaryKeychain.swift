import Foundation
@testable import KeychainCore

/// A fresh keychain in its own temporary home, for one test.
func temporaryHome() -> URL {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-test-\(UUID().uuidString)")
    return home
}

func makeKeychain(
    groups: [String] = ["TEAM1.com.example.app"], home: URL = temporaryHome(),
    clock: @escaping @Sendable () -> Date = { Date() }
) throws -> Keychain {
    try Keychain(configuration: KeychainConfiguration(
        home: home, identity: CallerIdentity(applicationIdentifier: groups.first, accessGroups: groups), clock: clock))
}
