import Foundation
import KeychainCore
import Security

@testable import CryptoKit

#if canImport(Glibc)
    import Glibc
#endif

/// A stand-in for `/etc/keychain/secure-enclave` in a directory of its own, whose administrator is the user running
/// the tests (root in the container; the real setting wants root).
final class SoftwareEnclaveSettingFile {
    let directory: URL
    let file: URL
    var setting: SecureEnclaveSetting { SecureEnclaveSetting(path: file.path, administrator: getuid()) }

    /// Writes `contents` with `mode`, in a directory with `directoryMode`.
    init(_ contents: String = "software\n", mode: mode_t = 0o644, directoryMode: mode_t = 0o755) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("enclave-setting-\(UUID())")
        file = directory.appendingPathComponent("secure-enclave")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try Data(contents.utf8).write(to: file)
        chmod(file.path, mode)
        chmod(directory.path, directoryMode)
    }

    /// Reads the setting while this file exists.
    func read() -> SecureEnclaveSetting.Decision {
        withExtendedLifetime(self) { setting.read() }
    }

    deinit {
        chmod(directory.path, 0o755)
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with no TPM and the software enclave opted in by `setting` (a fresh opt-in file by default).
func withSoftwareEnclave<R>(_ setting: SoftwareEnclaveSettingFile? = nil, _ body: () throws -> R) throws -> R {
    let file = try setting ?? SoftwareEnclaveSettingFile()
    return try SecureEnclaveBacking.$tctiOverride.withValue("") {
        try SecureEnclaveSetting.$override.withValue(file.setting) {
            try withExtendedLifetime(file) { try body() }
        }
    }
}

/// ``withSoftwareEnclave(_:_:)`` for asynchronous tests.
func withSoftwareEnclave<R>(_ body: () async throws -> R) async throws -> R {
    let file = try SoftwareEnclaveSettingFile()
    return try await SecureEnclaveBacking.$tctiOverride.withValue("") {
        try await SecureEnclaveSetting.$override.withValue(file.setting) {
            let result = try await body()
            withExtendedLifetime(file) {}
            return result
        }
    }
}

/// A keychain home that outlives one open, for reopening: no passcode, so that a new open finds its classes open.
final class ReopenableKeychainHome {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("enclave-home-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: home) }

    /// Opens the home, runs `body` with it installed for this task, and closes it.
    func withOpen<R>(_ body: (Keychain) throws -> R) throws -> R {
        var configuration = KeychainConfiguration(
            home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]))
        configuration.passcodeDerivationTarget = 0.002
        let keychain = try Keychain(configuration: configuration)
        defer { keychain.close() }
        return try SecurityRuntime.withKeychain(keychain) { try body(keychain) }
    }
}
