import Foundation
import KeychainCore

extension DaemonKeychainService {
    /// A backup or restore naming a path, carried out with this process's rights: the file is written or read
    /// here, and only its bytes cross the socket (keychaind opens no path a client names). nil for any other
    /// request.
    func performBackupLocally(_ request: KeychainRequest, as caller: Caller) throws -> KeychainResponse? {
        switch request {
        case .backup(let path, let password):
            let url = URL(fileURLWithPath: path)
            // Refused before the daemon does the work (and before any owner prompt), as in process.
            try Keychain.checkBackupDestination(url)
            guard
                case .backupArchive(let archive, let summary) = try perform(
                    .backupArchive(password: password), as: caller)
            else { throw KeychainError.decode.because("keychaind answered a backup with something else") }
            try Keychain.writeBackupFile(archive, to: url)
            return .backup(summary)
        case .restore(let path, let password):
            let archive = try Keychain.readBackupFile(URL(fileURLWithPath: path))
            return try perform(.restoreArchive(archive, password: password), as: caller)
        default:
            return nil
        }
    }
}
