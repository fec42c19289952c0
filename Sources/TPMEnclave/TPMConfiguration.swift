import Foundation
import Synchronization

/// The process's connections to TPMs (which TPM SecureEnclave keys live in is KeychainCore's
/// `SecureEnclaveBacking.configuredTCTI`).
package enum TPMConfiguration {
    private static let connections = Mutex<[String: TPMConnection]>([:])
    /// One lock per TPM, held while a first connection to it is made: callers arriving meanwhile take it once made,
    /// or after it failed find the TPM refused at once while its call waits, rather than each leaving a thread in a
    /// silent TPM. A silent TPM holds up no other TPM's callers.
    private static let connecting = Mutex<[String: NSLock]>([:])

    /// The process's connection through `tcti`, made on first use.
    package static func connection(_ tcti: String) throws(TPMError) -> TPMConnection {
        if let existing = connections.withLock({ $0[tcti] }) { return existing }
        _ = closesAtExit
        let lock = connecting.withLock { locks in
            if let lock = locks[tcti] { return lock }
            let lock = NSLock()
            locks[tcti] = lock
            return lock
        }
        lock.lock()
        defer { lock.unlock() }
        if let existing = connections.withLock({ $0[tcti] }) { return existing }
        let made = try TPMConnection(tcti: tcti)
        connections.withLock { $0[tcti] = made }
        return made
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

/// How long the keychain waits for a TPM before it gives up on it. ESAPI's synchronous calls wait for an answer
/// forever (they ignore `Esys_SetTimeout`), so a stopped `swtpm`, a wedged `/dev/tpmrm0` or a proxy that swallows
/// bytes would hang every caller: each connection runs its calls on a thread of its own and the caller waits at
/// most this long (``TPMError/timedOut(tcti:seconds:)``, errSecNotAvailable), then the connection is given up.
package struct TPMTimeouts: Sendable, Equatable {
    /// Seconds for connecting (the storage primary key) and creating a key.
    package var creation: Double
    /// Seconds for using a key: its load and, with it, a signature, an ECDH or a check.
    package var use: Double

    package init(creation: Double, use: Double) {
        self.creation = creation
        self.use = use
    }

    /// The defaults. Making or using a P-256 key takes a TPM well under a second, and the kernel's driver allows an
    /// ordinary command 2 s; a call is a few commands (load, session, the command, flushes), which a resource manager
    /// may queue behind other processes'. 10 s for a use leaves several times that; 30 s for a connection or a key,
    /// as CreatePrimary and Create are the slowest commands of slow discrete TPMs.
    package static let standard = TPMTimeouts(creation: 30, use: 10)

    /// The environment variable that sets both, in seconds ("2", "0.5"); unset, empty or not a positive number:
    /// ``standard``.
    package static let variable = "KEYCHAIN_TPM_TIMEOUT"

    /// The timeouts a test sets for the connections made in the task it runs in.
    @TaskLocal package static var override: TPMTimeouts? = nil

    /// The timeouts of a connection made now: the test's override, else the variable, else ``standard``.
    package static func configured() -> TPMTimeouts {
        if let override { return override }
        guard let value = getenv(variable).map({ String(cString: $0) }) else { return standard }
        return parsed(value) ?? standard
    }

    /// Both timeouts set to `value` seconds; nil unless it is a positive, finite number.
    package static func parsed(_ value: String) -> TPMTimeouts? {
        guard let seconds = Double(value), seconds.isFinite, seconds > 0 else { return nil }
        return TPMTimeouts(creation: seconds, use: seconds)
    }
}
