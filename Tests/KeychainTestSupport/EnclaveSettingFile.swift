import Foundation
import KeychainCore

#if canImport(Glibc)
    import Glibc
#endif

/// A stand-in for `/etc/keychain/secure-enclave` saying `software`, in a directory of its own and owned by the user
/// running the tests (the real setting wants root): for this process through ``use(_:)``, or for a keychaind started
/// with `--secure-enclave-setting` ``file`` and `--policy-owner` this user.
package final class EnclaveSettingFile: Sendable {
    package let directory = FileManager.default.temporaryDirectory.appendingPathComponent("enclave-setting-\(UUID())")
    package var file: String { directory.appendingPathComponent("secure-enclave").path }
    package var setting: SecureEnclaveSetting { SecureEnclaveSetting(path: file, administrator: getuid()) }

    package init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try Data("software\n".utf8).write(to: URL(fileURLWithPath: file))
        chmod(directory.path, 0o755)
        chmod(file, 0o644)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Runs `body` with no TPM and this opt-in.
    package func use<R>(_ body: () throws -> R) throws -> R {
        try SecureEnclaveBacking.$tctiOverride.withValue("") {
            try SecureEnclaveSetting.$override.withValue(setting) { try withExtendedLifetime(self) { try body() } }
        }
    }
}
