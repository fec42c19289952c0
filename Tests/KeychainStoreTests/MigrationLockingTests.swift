import Foundation
import Testing

@testable import KeychainStore

/// Migrations read the schema version first and take the write lock only when a step is due.
@Suite struct MigrationLockingTests {
    private let schema = [Migration(version: 1, sql: "CREATE TABLE t (k BLOB UNIQUE, v INTEGER);")]

    private func temporaryDatabasePath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("test.db").path
    }

    @Test func anUpToDateSchemaMigratesWithoutTheWriteLock() throws {
        let path = try temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let first = try Database(path: path)
        defer { first.close() }
        try first.migrate(schema)
        try first.execute("BEGIN IMMEDIATE")
        defer { try? first.execute("ROLLBACK") }

        let second = try Database(path: path, busyTimeout: 100)
        defer { second.close() }
        try second.migrate(schema)
        #expect(try second.userVersion == 1)
    }

    @Test func aDueMigrationStillWaitsForTheWriteLockAndReportsBusy() throws {
        let path = try temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let first = try Database(path: path)
        defer { first.close() }
        try first.migrate(schema)
        try first.execute("BEGIN IMMEDIATE")
        defer { try? first.execute("ROLLBACK") }

        let second = try Database(path: path, busyTimeout: 100)
        defer { second.close() }
        let next = schema + [Migration(version: 2, sql: "CREATE TABLE u (k BLOB);")]
        #expect { try second.migrate(next) } throws: { ($0 as? StoreError)?.isBusy == true }
    }
}
