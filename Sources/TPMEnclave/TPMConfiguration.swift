import Foundation
import Synchronization

/// The process's connections to TPMs (which TPM SecureEnclave keys live in is KeychainCore's
/// `SecureEnclaveBacking.configuredTCTI`).
package enum TPMConfiguration {
    private static let connections = Mutex<[String: TPMConnection]>([:])

    /// The process's connection through `tcti`, made on first use.
    package static func connection(_ tcti: String) throws(TPMError) -> TPMConnection {
        if let existing = connections.withLock({ $0[tcti] }) { return existing }
        _ = closesAtExit
        let made = try TPMConnection(tcti: tcti)
        return connections.withLock { cache in
            if let existing = cache[tcti] { return existing }
            cache[tcti] = made
            return made
        }
    }

    /// Without a resource manager between them (swtpm, a bare `/dev/tpm0`), a TPM keeps the primary key loaded
    /// after the process is gone, and fills its few object slots within a handful of runs: at exit, every
    /// connection flushes its primary key.
    private static let closesAtExit: Void = {
        atexit { TPMConfiguration.closeAll() }
    }()

    /// Closes every connection (flushing its primary key).
    package static func closeAll() {
        let closing = connections.withLock { cache in
            defer { cache.removeAll() }
            return Array(cache.values)
        }
        _ = closing
    }

    /// Drops the connection through `tcti`, so that the next use reconnects (after the TPM went away).
    package static func forget(_ tcti: String) {
        _ = connections.withLock { $0.removeValue(forKey: tcti) }
    }
}
