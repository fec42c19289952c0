import KeychainStore
import Synchronization

/// keychaind's writer of items: a second connection to the keychain's database behind a ``GroupCommitter``, so
/// the adds, updates and deletes of many clients share one transaction and one fsync, each in a savepoint of its
/// own, and no caller returns before its group's COMMIT has. Reads stay on the keychain's own connection and, in
/// WAL mode, never wait for a group.
final class CommittedWriter: @unchecked Sendable {  // safe: `store` is used only inside `committer`'s writes
    private let store: ItemStore
    private let committer: GroupCommitter
    private let isClosed = Atomic<Bool>(false)

    init(_ store: ItemStore) {
        self.store = store
        committer = GroupCommitter(database: store.database)
    }

    /// Runs `body` on the writer's store inside the next group; returns once that group has committed.
    /// - Throws: what `body` threw (only its own changes are undone), or the commit's error.
    func write<R>(_ body: (ItemStore) throws -> R) throws -> R {
        do {
            return try committer.write { _ in try body(store) }
        } catch GroupCommitter.Failure.closed {
            throw KeychainError.notAvailable.because("the keychain was closed")
        }
    }

    /// Writes queued and not yet started.
    var pendingWrites: Int { committer.pendingCount }
    /// Groups committed so far, and the writes they acknowledged.
    var committed: (groups: Int, writes: Int) { (committer.groupsCommitted, committer.writesCommitted) }

    /// Finishes the queued writes and closes the connection; later writes fail with errSecNotAvailable.
    func close() {
        guard !isClosed.exchange(true, ordering: .relaxed) else { return }
        committer.close()
    }
}
