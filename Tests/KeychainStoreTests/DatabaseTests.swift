import Foundation
import Testing

@testable import KeychainStore

/// One directory for this test process's databases, removed when the process exits.
let temporaryRoot: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("store-tests-\(UUID().uuidString)")
    atexit { try? FileManager.default.removeItem(at: temporaryRoot) }
    return root
}()

func temporaryPath() -> String {
    let directory = temporaryRoot.appendingPathComponent("store-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("test.db").path
}

@Suite struct DatabaseTests {
    @Test func opensInWALModeWithFullSync() throws {
        let database = try Database(path: temporaryPath())
        defer { database.close() }
        #expect(try database.statement("PRAGMA journal_mode").rows().first?.first == .text("wal"))
        #expect(try database.statement("PRAGMA synchronous").rows().first?.first == .integer(2))
    }

    /// A savepoint's copies of the pages it changes (SQLite's statement journal) stay in memory: past 64 KiB
    /// SQLite would otherwise spill them to a file in the system's temporary directory, outside the home, and a
    /// group's writes would depend on that directory being writable.
    @Test func aLargeSavepointWritesNoTemporaryFile() throws {
        let database = try Database(path: temporaryPath())
        defer { database.close() }
        try database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)")
        try database.writeTransaction {
            for key in 0..<2_000 {
                try database.statement("INSERT INTO t VALUES (?, ?)").run([
                    .integer(Int64(key)), .blob(Array(repeating: 1, count: 200)),
                ])
            }
        }
        try database.execute("BEGIN IMMEDIATE; SAVEPOINT s; UPDATE t SET v = zeroblob(200);")
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let temporary = open.compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
        }
        .filter { $0.contains("etilqs") }
        try database.execute("RELEASE s; COMMIT")
        #expect(temporary.isEmpty, "\(temporary)")
    }

    @Test func transactionRollsBackOnError() throws {
        let database = try Database(path: temporaryPath())
        defer { database.close() }
        try database.execute("CREATE TABLE t (k BLOB UNIQUE, v INTEGER)")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try database.writeTransaction {
                try database.statement("INSERT INTO t VALUES (?, ?)").run([.blob([1]), .integer(1)])
                throw Abort()
            }
        }
        #expect(try database.statement("SELECT count(*) FROM t").rows() == [[.integer(0)]])
    }

    @Test func uniqueViolationIsRecognised() throws {
        let database = try Database(path: temporaryPath())
        defer { database.close() }
        try database.execute("CREATE TABLE t (k BLOB UNIQUE)")
        let insert = try database.statement("INSERT INTO t VALUES (?)")
        try insert.run([.blob([7])])
        do {
            try insert.run([.blob([7])])
            Issue.record("second insert succeeded")
        } catch let error as StoreError {
            #expect(error.isUniqueViolation)
        }
        // An empty blob is stored as a blob, not NULL.
        try insert.run([.blob([])])
        #expect(try database.statement("SELECT typeof(k) FROM t WHERE length(k) = 0").rows() == [[.text("blob")]])
    }

    @Test func migrationsRunOnceInOrder() throws {
        let path = temporaryPath()
        let steps = [
            Migration(version: 1, sql: "CREATE TABLE a (x INTEGER)"),
            Migration(version: 2, sql: "ALTER TABLE a ADD COLUMN y INTEGER"),
        ]
        do {
            let database = try Database(path: path)
            defer { database.close() }
            try database.migrate(Array(steps.prefix(1)))
            #expect(try database.userVersion == 1)
        }
        let database = try Database(path: path)
        defer { database.close() }
        try database.migrate(steps)
        try database.migrate(steps)
        #expect(try database.userVersion == 2)
        try database.statement("INSERT INTO a (x, y) VALUES (1, 2)").run()
        #expect(throws: StoreError.self) { try database.migrate([Migration(version: 1, sql: "SELECT 1")]) }
        #expect(try database.integrityCheck() == "ok")
    }
}
