import Foundation
import KeychainCore

#if canImport(Glibc)
    import Glibc
#endif

/// Whether this process's keychain is keychaind's, and at which socket: `KEYCHAIN_SOCKET=PATH` in the
/// environment, else the administrator's setting `/etc/keychain/daemon` (a file owned by root and writable by no
/// one else whose first line that is not a comment is `socket=PATH`), else none: the embedded keychain.
package enum DaemonSetting {
    /// The administrator's file that makes the system daemon every process's keychain.
    package static let systemSettingPath = "/etc/keychain/daemon"

    /// The socket named by `environment`, else by the system setting at `settingPath`.
    package static func socketPath(
        environment: EnvironmentVariables = .process, settingPath: String = systemSettingPath, trustedOwner: UInt32 = 0
    ) -> String? {
        if let path = environment["KEYCHAIN_SOCKET"], !path.isEmpty { return path }
        return systemSocket(at: settingPath, trustedOwner: trustedOwner)
    }

    /// The process's daemon service, made once from the environment as the process started.
    package static let processService: DaemonKeychainService? = socketPath().map {
        DaemonKeychainService(socketPath: $0)
    }

    /// The socket the administrator's file names; nil when it is missing, or not root's alone (a setting anyone
    /// else could write would let them point every process at a daemon of their own).
    static func systemSocket(at path: String, trustedOwner: UInt32) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == trustedOwner,
            status.st_mode & 0o022 == 0, let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard trimmed.hasPrefix("socket=") else { return nil }
            let socket = String(trimmed.dropFirst("socket=".count))
            return socket.hasPrefix("/") ? socket : nil
        }
        return nil
    }
}
