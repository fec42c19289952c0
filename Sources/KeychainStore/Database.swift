import Dispatch

@_implementationOnly import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// One SQLite connection in WAL mode with full sync, so a committed transaction survives a crash or power cut.
///
/// Not thread-safe: the engine owns one per keychain and uses it under a lock. Close it explicitly.
package final class Database {
    let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    private var isClosed = false
    private let busyTimeout: Int32

    /// Opens (creating if needed) the database at `path`.
    /// - Parameters:
    ///   - busyTimeout: how long to wait for another process's lock before failing, in milliseconds.
    ///   - processExclusive: this process holds the file for as long as it has it open, and no other process may
    ///     open it meanwhile (SQLite's `unix-excl` VFS): the WAL index then lives in the process's memory, shared
    ///     by its connections, and a transaction takes no file lock (no `fcntl`). For keychaind, the one process
    ///     that opens its state directory's databases.
    package init(path: String, busyTimeout: Int32 = 10_000, processExclusive: Bool = false) throws {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, processExclusive ? "unix-excl" : nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            sqlite3_close_v2(connection)
            throw StoreError(code: code, message: message)
        }
        handle = connection
        self.busyTimeout = busyTimeout
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeout)
        do {
            // WAL: readers never block the writer. FULL: fsync the WAL at every commit (SQLite docs, "PRAGMA
            // synchronous": NORMAL in WAL mode may lose the last transactions on power loss). Temporary storage
            // in memory: a savepoint's copies of the pages it changes would otherwise spill past 64 KiB to a
            // file in the system's temporary directory, outside the home, which a sandbox may not let us write.
            try retryingWhileBusy(for: busyTimeout) {
                try execute(
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA secure_delete=ON; PRAGMA temp_store=MEMORY;"
                )
            }
        } catch {
            sqlite3_close_v2(handle)
            isClosed = true
            throw error
        }
    }

    /// Bounds the database file of this connection's writes to about `bytes` (SQLite's `max_page_count`, at least
    /// the pages it has): a write past it fails with SQLITE_FULL, as on a full disk. The write-ahead log is cut
    /// back to that size too after each checkpoint (`journal_size_limit`), so it does not keep what a large
    /// transaction made it.
    package func limitSize(toBytes bytes: Int) throws {
        let pageSize = Int(try statement("PRAGMA page_size").rows().first?.first?.integerValue ?? 4096)
        try execute("PRAGMA max_page_count = \(max(1, bytes / max(pageSize, 512)))")
        _ = try statement("PRAGMA journal_size_limit = \(bytes)").rows()
    }

    /// Copies the write-ahead log into the database file and truncates it to nothing (`wal_checkpoint(TRUNCATE)`),
    /// so the page images it held (rows as they were before a rewrite) leave it. The database file's own freed
    /// pages are zeroed already (`secure_delete`).
    /// It waits at most `milliseconds` for readers and writers (it takes the write lock: writers wait for it).
    /// - Returns: whether it completed: a reader still on an older snapshot holds the log back.
    package func checkpointTruncating(waitingAtMost milliseconds: Int32) throws -> Bool {
        sqlite3_busy_timeout(handle, milliseconds)
        defer { sqlite3_busy_timeout(handle, busyTimeout) }
        do {
            return try statement("PRAGMA wal_checkpoint(TRUNCATE)").rows().first?.first?.integerValue == 0
        } catch let error as StoreError where error.isBusy {
            return false
        }
    }

    /// Switching a new file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once, without its
    /// busy handler, when another connection is opening the same new file (it would risk a deadlock). Two
    /// processes opening one keychain for the first time meet exactly that, so retry for the busy timeout.
    private func retryingWhileBusy(for milliseconds: Int32, _ body: () throws -> Void) throws {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
        while true {
            do {
                return try body()
            } catch let error as StoreError where error.isBusy && DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(2_000)
            }
        }
    }

    deinit {
        assert(isClosed, "Database must be closed explicitly")
        if !isClosed { close() }
    }

    /// Finalizes cached statements and closes the connection.
    package func close() {
        guard !isClosed else { return }
        statements.removeAll()
        sqlite3_close_v2(handle)
        isClosed = true
    }

    /// Runs one or more SQL statements that take no parameters.
    package func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Runs a statement that takes no parameters and returns no rows, prepared on first use and kept: for the
    /// transaction statements every write runs (`sqlite3_exec` would parse them again on each call).
    package func executeKept(_ sql: String) throws {
        try statement(sql).run()
    }

    /// Returns a cached prepared statement for `sql`.
    package func statement(_ sql: String) throws -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; any error rolls the whole transaction back and is rethrown.
    /// IMMEDIATE takes the write lock up front, so two processes never both read-then-write and deadlock.
    package func writeTransaction<R>(_ body: () throws -> R) throws -> R {
        try begin("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try executeKept("COMMIT")
            return result
        } catch {
            rollBack()
            throw error
        }
    }

    /// Runs a BEGIN statement, with ROLLBACK prepared first: the transaction can then always be ended, since a
    /// prepared ROLLBACK does not fail in WAL mode, where preparing one can (out of memory). A connection left
    /// inside a transaction would show later reads what was undone, and refuse every later BEGIN.
    package func begin(_ sql: String) throws {
        _ = try statement("ROLLBACK")
        try executeKept(sql)
    }

    /// Undoes the open transaction, if there is one (an error may have ended it already).
    package func rollBack() {
        guard !isAutocommit else { return }
        try? executeKept("ROLLBACK")
    }

    /// Runs `body` inside a read transaction, so all its reads see one snapshot.
    package func readTransaction<R>(_ body: () throws -> R) throws -> R {
        try begin("BEGIN DEFERRED")
        let result: R
        do {
            result = try body()
        } catch {
            rollBack()
            throw error
        }
        // A COMMIT that fails means the snapshot was not what it seemed: say so rather than return it, and end
        // the transaction (a refused COMMIT leaves it open, and the connection's next BEGIN would fail).
        do {
            try executeKept("COMMIT")
        } catch {
            rollBack()
            throw error
        }
        return result
    }

    /// The rowid of the last row inserted on this connection.
    package var lastInsertRowid: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows the last statement changed.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// `PRAGMA user_version`, which records the schema version.
    package var userVersion: Int {
        get throws { Int(try statement("PRAGMA user_version").rows().first?.first?.integerValue ?? 0) }
    }

    /// Runs `PRAGMA integrity_check` and returns its report ("ok" when the file is sound).
    package func integrityCheck() throws -> String {
        try statement("PRAGMA integrity_check").rows().compactMap { $0.first?.textValue }.joined(separator: "\n")
    }

    func error(_ code: Int32) -> StoreError {
        StoreError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }
}

@available(*, unavailable)
extension Database: Sendable {}
