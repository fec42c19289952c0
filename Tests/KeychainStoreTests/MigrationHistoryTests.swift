import Foundation
import Testing

@testable import KeychainStore

/// The schema history is append-only data: a step added later reaches files written before it, applied steps
/// are recorded by identifier, and a file written by another history is refused rather than built on.
@Suite struct MigrationHistoryTests {
    private let genp = Migration(version: 1, identifier: "v1 genp", sql: "CREATE TABLE genp (k BLOB UNIQUE);")
    private let keys = Migration(version: 2, identifier: "v2 keys", sql: "CREATE TABLE keys (k BLOB UNIQUE);")

    @Test func aTableAddedLaterReachesAFileWrittenBeforeIt() throws {
        let path = temporaryPath()
        do {
            let database = try Database(path: path)
            defer { database.close() }
            try database.migrate([genp])
        }
        let database = try Database(path: path)
        defer { database.close() }
        try database.migrate([genp, keys])
        try database.statement("INSERT INTO keys (k) VALUES (x'01')").run()
        #expect(try database.userVersion == 2)
        #expect(try database.appliedMigrations() == [1: "v1 genp", 2: "v2 keys"])
    }

    @Test func aFileFromBeforeTheRecordGetsItsStepsRecorded() throws {
        // The first release set user_version without recording the step's identifier.
        let path = temporaryPath()
        let database = try Database(path: path)
        defer { database.close() }
        try database.execute(genp.sql)
        try database.execute("PRAGMA user_version = 1")
        try database.migrate([genp, keys])
        #expect(try database.appliedMigrations() == [1: "v1 genp", 2: "v2 keys"])
    }

    @Test func aFileWrittenByAnotherHistoryIsRefused() throws {
        let path = temporaryPath()
        let database = try Database(path: path)
        defer { database.close() }
        try database.migrate([Migration(version: 1, identifier: "v1 something else", sql: "CREATE TABLE x (k BLOB);")])
        #expect(throws: StoreError.self) { try database.migrate([genp, keys]) }
        #expect(try database.userVersion == 1)
    }

    @Test func aHistoryWithAGapIsRefused() throws {
        let database = try Database(path: temporaryPath())
        defer { database.close() }
        #expect(throws: StoreError.self) {
            try database.migrate([genp, Migration(version: 3, identifier: "v3", sql: "SELECT 1")])
        }
        #expect(try database.userVersion == 0)
    }
}
