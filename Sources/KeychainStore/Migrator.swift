/// One step of the schema, applied once, in order, inside one transaction with the version bump. Steps are
/// append-only data: once shipped, a step's SQL never changes, and a later schema is a later step.
package struct Migration: Sendable {
    /// The schema version this step produces (its position in the history, from 1).
    package let version: Int
    /// A name that says what the step does; recorded when the step is applied.
    package let identifier: String
    /// The SQL that takes the previous version to `version`, frozen.
    package let sql: String

    package init(version: Int, identifier: String? = nil, sql: String) {
        self.version = version
        self.identifier = identifier ?? "v\(version)"
        self.sql = sql
    }
}

extension Database {
    /// The table where applied steps are recorded (version and identifier), as GRDB's migrator records them.
    package static let migrationsTable = "schema_migrations"

    /// Brings the schema up to the last of `migrations`. The version is read first, outside any transaction (in
    /// WAL mode a read never waits for another process's writer), and the write lock is taken only when a step is
    /// due: opening an up-to-date file must not queue behind someone else's write.
    /// - Throws: a ``StoreError`` if the file was written by a newer schema than this code knows, or by a history
    ///   that differs from `migrations` in a step already applied.
    package func migrate(_ migrations: [Migration]) throws {
        let steps = migrations.sorted { $0.version < $1.version }
        guard steps.enumerated().allSatisfy({ $0.offset + 1 == $0.element.version }) else {
            throw StoreError(.error, message: "the schema history must number its steps 1, 2, 3, … without gaps")
        }
        let newest = steps.last?.version ?? 0
        guard try checkedVersion(newest: newest) < newest else { return }
        try writeTransaction {
            // Another process may have migrated between the read and the lock.
            let current = try checkedVersion(newest: newest)
            try recordHistory(upTo: current, of: steps)
            for step in steps where step.version > current {
                try execute(step.sql)
                try statement("INSERT INTO \(Self.migrationsTable) (version, identifier) VALUES (?, ?)")
                    .run([.integer(Int64(step.version)), .text(step.identifier)])
                try execute("PRAGMA user_version = \(step.version)")
            }
        }
    }

    /// The identifiers of the applied steps, by version.
    package func appliedMigrations() throws -> [Int: String] {
        let exists =
            try statement(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(Self.migrationsTable)'"
            ).rows().first?.first?.integerValue ?? 0
        guard exists > 0 else { return [:] }
        var applied: [Int: String] = [:]
        for row in try statement("SELECT version, identifier FROM \(Self.migrationsTable)").rows() {
            if let version = row[0].integerValue, let identifier = row[1].textValue {
                applied[Int(version)] = identifier
            }
        }
        return applied
    }

    /// Makes sure the record of applied steps exists and agrees with `steps` up to `current`. A file from before
    /// the record existed gets it filled in from its version; a recorded step that differs from ours means the
    /// file was written by another history, which this code must not build on.
    private func recordHistory(upTo current: Int, of steps: [Migration]) throws {
        try execute(
            "CREATE TABLE IF NOT EXISTS \(Self.migrationsTable) (version INTEGER PRIMARY KEY, identifier TEXT NOT NULL)"
        )
        let applied = try appliedMigrations()
        for step in steps where step.version <= current {
            if let recorded = applied[step.version] {
                guard recorded == step.identifier else {
                    throw StoreError(
                        .error,
                        message: "schema step \(step.version) of this file is \"\(recorded)\", "
                            + "not \"\(step.identifier)\": it was written by another version of the program")
                }
            } else {
                try statement("INSERT INTO \(Self.migrationsTable) (version, identifier) VALUES (?, ?)")
                    .run([.integer(Int64(step.version)), .text(step.identifier)])
            }
        }
    }

    private func checkedVersion(newest: Int) throws -> Int {
        let current = try userVersion
        guard current <= newest else {
            throw StoreError(.error, message: "database schema \(current) is newer than this program (\(newest))")
        }
        return current
    }
}
