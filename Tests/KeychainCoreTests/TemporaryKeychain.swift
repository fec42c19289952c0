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

/// A fresh temporary home holding a copy of `Tests/Fixtures/<name>`, a home written by an earlier release (its
/// README left out), its files owner-only as the engine makes them.
func copyOfCommittedHome(_ name: String) throws -> URL {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/" + name)
    let home = temporaryHome()
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    for file in try FileManager.default.contentsOfDirectory(atPath: fixture.path) where file != "README.md" {
        let target = home.appendingPathComponent(file)
        try FileManager.default.copyItem(at: fixture.appendingPathComponent(file), to: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
    }
    return home
}
