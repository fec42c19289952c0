import Foundation
import KeychainStore
import Testing

@testable import KeychainCore

/// Homes written by each earlier schema open, and the history creates every column the engine uses.
@Suite struct SchemaHistoryTests {
    /// A home whose database was written with the frozen SQL of schema v1 and nothing else, as the first release
    /// left it (no record of applied steps).
    private func homeWrittenBySchemaOne() throws -> URL {
        let home = temporaryHome()
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        try database.execute(SchemaHistory.v1PasswordTables)
        try database.execute("PRAGMA user_version = 1")
        return home
    }

    @Test func aHomeWrittenBySchemaOneOpensAndWorks() throws {
        let keychain = try makeKeychain(home: try homeWrittenBySchemaOne())
        try keychain.add(genericPassword(account: "a"))
        try keychain.add(
            NewItem(
                itemClass: .internetPassword, attributes: [.server: .string("example.com")],
                data: Array("pw".utf8)))
        #expect(try keychain.copyMatching(genericQuery([.account: .string("a")], returns: .data)).count == 1)
    }

    @Test func aHomeWrittenBySchemaOneGainsTheKeyTableAndTakesAKey() throws {
        let home = try homeWrittenBySchemaOne()
        let keychain = try makeKeychain(home: home)
        var key = NewItem(itemClass: .key, attributes: [.applicationTag: .data(bytes("tag"))])
        key.value = .key(KeyValue(keyType: "73", keyClass: "1", sizeInBits: 256, externalRepresentation: Secret([4])))
        try keychain.add(key)
        #expect(try keychain.count(ItemQuery(itemClass: .key)) == 1)
        keychain.close()
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        #expect(try database.userVersion == SchemaHistory.migrations.count)
        #expect(try database.appliedMigrations()[2] == "v2 key and certificate tables")
        let store = try ItemStore(database: database, tables: ItemTables.all, migrations: SchemaHistory.migrations)
        #expect(try store.columns(of: "cert").contains("d_pkhh"))
        #expect(try store.columns(of: "keys").contains("d_atag"))
    }

    /// A home as schema v2 left it: the password, key and certificate tables, and the record of both steps.
    private func homeWrittenBySchemaTwo() throws -> URL {
        let home = temporaryHome()
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        _ = try ItemStore(database: database, tables: [], migrations: Array(SchemaHistory.migrations.prefix(2)))
        #expect(try database.userVersion == 2)
        let columns = try database.statement("PRAGMA table_info(keys)").rows().compactMap { $0[1].textValue }
        #expect(columns.contains("d_atag") && !columns.contains("d_tkid"))
        return home
    }

    @Test func aHomeWrittenBySchemaTwoGainsTheTokenIDOfKeys() throws {
        let home = try homeWrittenBySchemaTwo()
        let keychain = try makeKeychain(home: home)
        var key = NewItem(
            itemClass: .key,
            attributes: [
                .applicationTag: .data(bytes("tag")),
                .tokenID: .string("com.apple.setoken"),
            ])
        key.value = .key(KeyValue(keyType: "73", keyClass: "1", sizeInBits: 256, externalRepresentation: Secret([4])))
        try keychain.add(key)
        let byToken = ItemQuery(itemClass: .key, attributes: [.tokenID: .string("com.apple.setoken")])
        #expect(try keychain.count(byToken) == 1)
        keychain.close()
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        #expect(try database.userVersion == SchemaHistory.migrations.count)
        #expect(try database.appliedMigrations()[3] == "v3 token ID of keys")
        let store = try ItemStore(database: database, tables: ItemTables.all, migrations: SchemaHistory.migrations)
        #expect(try store.columns(of: "keys").contains("d_tkid"))
    }

    /// A database as schema v3 left it gains the alias of both password classes: an item with an alias and one
    /// without are found by it and by their account (rows written by v3 itself are read in
    /// `ItemFormatThreeUpgradeTests.aHomeOfSchemaThreeReadsItsItemsAfterTheAliasStep`).
    @Test func aHomeWrittenBySchemaThreeGainsThePasswordAlias() throws {
        let home = temporaryHome()
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        _ = try ItemStore(database: database, tables: [], migrations: Array(SchemaHistory.migrations.prefix(3)))
        database.close()
        let keychain = try makeKeychain(home: home)
        try keychain.add(genericPassword(account: "old"))
        try keychain.add(genericPassword(account: "new", extra: [.alias: .string("work")]))
        #expect(try keychain.count(genericQuery([.alias: .string("work")])) == 1)
        #expect(try keychain.count(genericQuery([.account: .string("old")])) == 1)
        keychain.close()
        let reopened = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { reopened.close() }
        #expect(try reopened.appliedMigrations()[4] == "v4 alias of passwords")
        let store = try ItemStore(database: reopened, tables: ItemTables.all, migrations: SchemaHistory.migrations)
        #expect(try store.columns(of: "genp").contains("f_alis"))
        #expect(try store.columns(of: "inet").contains("d_alis"))
    }

    @Test func theCommittedFormatOneHomeOpensAtTheCurrentSchema() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/constrained-items-format-1/keychain.db")
        let copy = temporaryHome()
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture, to: copy.appendingPathComponent("keychain.db"))
        let database = try Database(path: copy.appendingPathComponent("keychain.db").path)
        defer { database.close() }
        let store = try ItemStore(database: database, tables: ItemTables.all, migrations: SchemaHistory.migrations)
        #expect(try database.userVersion == SchemaHistory.migrations.count)
        #expect(try store.select(from: "genp", where: RowFilter(), reading: []).count == 7)
    }

    @Test func theHistoryCreatesEveryColumnTheEngineUses() throws {
        let home = temporaryHome()
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let database = try Database(path: home.appendingPathComponent("keychain.db").path)
        defer { database.close() }
        let store = try ItemStore(database: database, tables: ItemTables.all, migrations: SchemaHistory.migrations)
        for spec in ItemTables.all {
            let columns = Set(try store.columns(of: spec.name))
            let fixed: Set = ["rowid", "uuid", "pkey", "pdmn", "version", "wrappedkey", "meta", "secret"]
            #expect(fixed.isSubset(of: columns), "\(spec.name)")
            #expect(Set(spec.digestColumns).isSubset(of: columns), "\(spec.name) lacks a digest column")
        }
    }

    @Test func aStepAppendedLaterReachesAnExistingHome() throws {
        // What the next table will look like: a new step at the end of the history.
        let home = try homeWrittenBySchemaOne()
        _ = try makeKeychain(home: home)
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        let future =
            SchemaHistory.migrations + [
                Migration(
                    version: SchemaHistory.migrations.count + 1, identifier: "test future table",
                    sql: "CREATE TABLE future (rowid INTEGER PRIMARY KEY, uuid BLOB NOT NULL UNIQUE);")
            ]
        _ = try ItemStore(database: database, tables: ItemTables.all, migrations: future)
        try database.statement("INSERT INTO future (uuid) VALUES (x'01')").run()
        #expect(try database.appliedMigrations()[future.count] == "test future table")
    }
}
