/// One step of the schema, applied once, in order, inside one transaction with the version bump.
package struct Migration: Sendable {
    /// The schema version this step produces.
    package let version: Int
    /// The SQL that takes the previous version to `version`.
    package let sql: String

    package init(version: Int, sql: String) {
        self.version = version
        self.sql = sql
    }
}

extension Database {
    /// Brings the schema up to the last of `migrations`. The version is read first, outside any transaction (in
    /// WAL mode a read never waits for another process's writer), and the write lock is taken only when a step is
    /// due: opening an up-to-date file must not queue behind someone else's write.
    /// - Throws: a ``StoreError`` if the file was written by a newer schema than this code knows.
    package func migrate(_ migrations: [Migration]) throws {
        let newest = migrations.map(\.version).max() ?? 0
        guard try checkedVersion(newest: newest) < newest else { return }
        try writeTransaction {
            // Another process may have migrated between the read and the lock.
            let current = try checkedVersion(newest: newest)
            for step in migrations.sorted(by: { $0.version < $1.version }) where step.version > current {
                try execute(step.sql)
                try execute("PRAGMA user_version = \(step.version)")
            }
        }
    }

    private func checkedVersion(newest: Int) throws -> Int {
        let current = try userVersion
        guard current <= newest else {
            throw StoreError(code: 1, message: "database schema \(current) is newer than this program (\(newest))")
        }
        return current
    }
}
