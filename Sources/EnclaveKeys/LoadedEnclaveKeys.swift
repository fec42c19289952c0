import KeychainCore
import Synchronization

/// The enclave keys keychaind loaded lately, by keychain home, use and stored form. A client sends a key's stored
/// form with every use, and loading it again each time doubled the daemon's work for a software key (the outer seal
/// under the home's wrapping key, the backend's lookup, the point's check) and added a TPM load (a millisecond under
/// swtpm, tens on a hardware TPM) for a TPM key. A key here holds nothing secret: its stored form, parsed (the auth
/// value is still sealed, and opened for each use), and for a TPM key the connection it was loaded on.
final class LoadedEnclaveKeys: Sendable {
    struct Name: Hashable {
        let home: String
        let use: SecureEnclaveKeyUse
        let storedForm: [UInt8]
    }

    private let keys = Mutex<[Name: SecureEnclaveKey]>([:])
    /// At most this many keys are kept; past it the table starts again (a daemon's working set is a few keys per
    /// app).
    private let limit: Int

    init(limit: Int = 256) { self.limit = limit }

    /// The name of `storedForm` for `use` in `keychain`'s home.
    func name(_ storedForm: [UInt8], use: SecureEnclaveKeyUse, keychain: Keychain) -> Name {
        Name(home: keychain.configuration.home.path, use: use, storedForm: storedForm)
    }

    /// The key named `name`, loaded by `load` unless it was lately.
    func key(_ name: Name, load: () throws -> SecureEnclaveKey) throws -> SecureEnclaveKey {
        if let known = keys.withLock({ $0[name] }) { return known }
        let loaded = try load()
        keys.withLock { table in
            if table.count >= limit { table.removeAll(keepingCapacity: true) }
            table[name] = loaded
        }
        return loaded
    }

    /// Forgets a key whose use failed: the next use loads it again (from a TPM that came back, on a new connection).
    func forget(_ name: Name) {
        _ = keys.withLock { $0.removeValue(forKey: name) }
    }

    /// Forgets every key, and with them the TPM connections they hold, so that the daemon's exit can close those
    /// (flushing the primary key from a TPM without a resource manager).
    func forgetAll() {
        keys.withLock { $0.removeAll() }
    }
}
