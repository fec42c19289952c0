import Foundation
import KeychainCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The keychains keychaind holds: one per client uid, in `<state>/<uid>/` (0700, made on first use), opened once
/// and kept for the daemon's life. Its class keys live in the daemon's memory only.
package final class UserKeychains: Sendable {
    private let stateDirectory: String
    private let keychains = Mutex<[UInt32: Keychain]>([:])
    private let passcodeDerivationTarget: Double?
    private let passcodeSystem: SystemOwnerAuthentication?
    /// The fingerprint reader for a user's keychain, by account name (nil: the simulated sensor).
    private let fingerprintReader: @Sendable (String) -> SystemFingerprintReader?
    /// The most bytes one uid's database may take (`--max-keychain-size`).
    private let largestDatabaseBytes: Int?

    /// - Parameter passcodeDerivationTarget: seconds one passcode derivation should take (the engine's default
    ///   when nil; tests make it short).
    /// - Parameter passcodeSystem: the system authentication device-passcode prompts go to instead of the
    ///   keychain passcode (`--passcode-prompts pam`).
    package init(
        stateDirectory: String, passcodeDerivationTarget: Double? = nil,
        passcodeSystem: SystemOwnerAuthentication? = nil,
        fingerprintReader: @escaping @Sendable (String) -> SystemFingerprintReader? = { _ in nil },
        largestDatabaseBytes: Int? = nil
    ) {
        self.largestDatabaseBytes = largestDatabaseBytes
        self.stateDirectory = stateDirectory
        self.passcodeDerivationTarget = passcodeDerivationTarget
        self.passcodeSystem = passcodeSystem
        self.fingerprintReader = fingerprintReader
    }

    /// The keychain of `uid`, opened on first use.
    /// - Throws: `KeychainError` when its directory or files cannot be made or opened.
    package func keychain(for uid: UInt32) throws -> Keychain {
        try keychains.withLock { open in
            if let keychain = open[uid] { return keychain }
            let reader = DaemonPrompter.userName(uid).flatMap(fingerprintReader)
            let keychain = try Self.open(
                home: try userDirectory(uid), passcodeTarget: passcodeDerivationTarget, system: passcodeSystem,
                reader: reader, largestDatabaseBytes: largestDatabaseBytes)
            open[uid] = keychain
            return keychain
        }
    }

    /// Locks every keychain and forgets its class keys (wiped), then closes it: the daemon is about to exit.
    package func closeAll() {
        keychains.withLock { open in
            for keychain in open.values {
                keychain.simulateRestart()
                keychain.close()
            }
            open = [:]
        }
    }

    /// Writes waiting for a group commit, over every keychain.
    package var pendingWrites: Int { openKeychains.values.reduce(0) { $0 + $1.pendingWrites } }

    /// The keychains open now, by uid.
    package var openKeychains: [UInt32: Keychain] { keychains.withLock { $0 } }

    private func userDirectory(_ uid: UInt32) throws -> URL {
        let path = stateDirectory + "/" + String(uid)
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw KeychainError.notAvailable.because("keychaind cannot create \(path) (errno \(errno))")
        }
        guard chmod(path, 0o700) == 0 else {
            throw KeychainError.notAvailable.because("keychaind cannot make \(path) 0700 (errno \(errno))")
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    private static func open(
        home: URL, passcodeTarget: Double?, system: SystemOwnerAuthentication?, reader: SystemFingerprintReader?,
        largestDatabaseBytes: Int?
    ) throws -> Keychain {
        // The identity here is only the default of convenience calls: every request names its caller.
        var configuration = KeychainConfiguration(
            home: home, identity: CallerIdentity(applicationIdentifier: nil, accessGroups: []))
        configuration.classKeysInProcessMemory = true
        // Many clients' writes share one transaction and one fsync (docs/keychaind.md, "Group commit").
        configuration.groupCommit = true
        // The state directory is the daemon's alone (0700): its keybag changes only through this keychain.
        configuration.soleWriterOfHome = true
        configuration.largestDatabaseBytes = largestDatabaseBytes
        if let passcodeTarget { configuration.passcodeDerivationTarget = passcodeTarget }
        // The reader's enrollment is asked of fprintd for the uid's account; its prompts the prompter relays.
        configuration.fingerprintReader = reader
        let prompter = DaemonPrompter(system: system, fingerprintReader: reader)
        configuration.userPrompter = prompter
        let keychain = try Keychain(configuration: configuration)
        prompter.useLocally(keychain.authenticators.localPrompter())
        return keychain
    }
}
