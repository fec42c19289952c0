import Foundation
import KernelKeyring

@testable import KeychainCore

/// One directory for every temporary home of this test process, removed when the process exits (tests leave
/// their homes in place, since some hand them to child processes).
let temporaryHomesRoot: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    atexit {
        try? FileManager.default.removeItem(at: temporaryHomesRoot)
        // The homes are gone: give their kernel keys back now rather than at some later open.
        if KernelKeyring.isAvailable { KeyringKeyStore.dropKeyringsOfDeletedHomes() }
    }
    return root
}()

/// A fresh keychain in its own temporary home, for one test.
func temporaryHome() -> URL {
    temporaryHomesRoot.appendingPathComponent("keychain-test-\(UUID().uuidString)")
}

func makeKeychain(
    groups: [String] = ["TEAM1.com.example.app"], home: URL = temporaryHome(),
    clock: @escaping @Sendable () -> Date = { Date() }
) throws -> Keychain {
    try Keychain(
        configuration: KeychainConfiguration(
            home: home, identity: CallerIdentity(applicationIdentifier: groups.first, accessGroups: groups),
            clock: clock))
}
