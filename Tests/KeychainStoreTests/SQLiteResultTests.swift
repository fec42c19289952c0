import Foundation
import Testing

@testable import KeychainStore

@Suite struct SQLiteResultTests {
    @Test func primaryPatternsMatchTheirFamilyAndExtendedOnlyThemselves() {
        let busySnapshot = SQLiteResult(SQLiteResult.busy.code | (2 << 8))  // SQLITE_BUSY_SNAPSHOT
        #expect(SQLiteResult.busy ~= busySnapshot)
        #expect(!(SQLiteResult.locked ~= busySnapshot))
        #expect(SQLiteResult.constraint ~= .constraintUnique)
        #expect(SQLiteResult.constraintUnique ~= .constraintUnique)
        #expect(!(SQLiteResult.constraintUnique ~= .constraintPrimaryKey))
        #expect(!(SQLiteResult.constraintUnique ~= .constraint))
        switch SQLiteResult(13) {
        case .full: break
        default: Issue.record("13 is SQLITE_FULL")
        }
    }

    @Test func failuresCarryTheirNamedResult() throws {
        let database = try Database(path: temporaryPath())
        defer { database.close() }
        try database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, u TEXT UNIQUE)")
        try database.statement("INSERT INTO t VALUES (1, 'a')").run()
        let primary = #expect(throws: StoreError.self) { try database.statement("INSERT INTO t VALUES (1, 'b')").run() }
        #expect(primary?.result == .constraintPrimaryKey)
        #expect(primary?.isUniqueViolation == true)
        let unique = #expect(throws: StoreError.self) { try database.statement("INSERT INTO t VALUES (2, 'a')").run() }
        #expect(unique?.result == .constraintUnique)
        let syntax = #expect(throws: StoreError.self) { try database.execute("SELEKT 1") }
        #expect(syntax?.result == .error)
        #expect(syntax?.isBusy == false && syntax?.isCorrupt == false && syntax?.isDiskFull == false)
    }

    @Test func aFileThatIsNotADatabaseIsCorrupt() throws {
        let path = temporaryPath()
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) {
            let database = try Database(path: path)
            defer { database.close() }
            _ = try database.userVersion
        }
        #expect(error?.result == .notADatabase)
        #expect(error?.isCorrupt == true)
    }

    /// A COMMIT that fails (here a deferred foreign key left unsatisfied) fails the read transaction and ends it.
    @Test func readTransactionReportsAFailingCommitAndEndsTheTransaction() throws {
        let database = try parentAndDeferredChild()
        defer { database.close() }
        let error = #expect(throws: StoreError.self) {
            try database.readTransaction { try database.statement("INSERT INTO child VALUES (7)").run() }
        }
        #expect(error?.result == .constraintForeignKey)
        #expect(database.isAutocommit)
        #expect(try database.statement("SELECT count(*) FROM child").rows() == [[.integer(0)]])
        #expect(try database.readTransaction { 42 } == 42)
    }

    /// A write transaction whose COMMIT is refused is rolled back and ended: the connection can begin the next
    /// one, and reads see nothing of it. Ending one with nothing open is harmless.
    @Test func writeTransactionEndsATransactionWhoseCommitFails() throws {
        let database = try parentAndDeferredChild()
        defer { database.close() }
        let error = #expect(throws: StoreError.self) {
            try database.writeTransaction {
                try database.statement("INSERT INTO parent VALUES (1)").run()
                try database.statement("INSERT INTO child VALUES (7)").run()
            }
        }
        #expect(error?.result == .constraintForeignKey)
        #expect(database.isAutocommit)
        #expect(try database.statement("SELECT count(*) FROM parent").rows() == [[.integer(0)]])
        database.rollBack()
        #expect(database.isAutocommit)
        try database.writeTransaction { try database.statement("INSERT INTO parent VALUES (2)").run() }
        #expect(try database.statement("SELECT count(*) FROM parent").rows() == [[.integer(1)]])
    }

    /// A database whose `child` rows must name a `parent` row by COMMIT (a deferred foreign key), so that a COMMIT
    /// can be made to fail.
    private func parentAndDeferredChild() throws -> Database {
        let database = try Database(path: temporaryPath())
        try database.execute(
            """
            PRAGMA foreign_keys = ON;
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
            """)
        return database
    }
}
