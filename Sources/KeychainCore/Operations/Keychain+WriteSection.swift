import KeychainStore

extension Keychain {
    /// Runs one operation's reads-for-writing and writes as one unit: in embedded mode a transaction of its own
    /// on the keychain's connection, under its lock; with group commit (keychaind) a savepoint inside the next
    /// group's transaction, on the writer's connection, without holding the keychain's lock while the group
    /// commits. Either way the call returns after the COMMIT that makes it durable, and a throw undoes only what
    /// `body` did.
    func writeSection<R: Sendable>(_ body: (ItemStore) throws -> R) throws -> R {
        guard let committer else {
            return try withStore { store in try store.database.writeTransaction { try body(store) } }
        }
        do {
            return try committer.write(body)
        } catch {
            throw translated(error)
        }
    }

    /// Writes waiting for the group committer (0 in embedded mode).
    package var pendingWrites: Int { committer?.pendingWrites ?? 0 }

    /// Groups the committer has committed, and the writes they acknowledged (zeros in embedded mode).
    package var committedGroups: (groups: Int, writes: Int) { committer?.committed ?? (0, 0) }
}
