import Foundation
import Testing

@testable import KeychainStore

/// The index binding a row's secret seal authenticates is the same bytes whether built from the digests being
/// written or read back from SQLite with the secret.
@Suite struct IndexBindingTests {
    private let spec = ItemTableSpec(name: "items", digestColumns: ["d_agrp", "d_acct", "f_acct", "d_labl"])

    private func store() throws -> ItemStore {
        let schema = """
            CREATE TABLE items (
                rowid INTEGER PRIMARY KEY, uuid BLOB NOT NULL UNIQUE, pkey BLOB NOT NULL UNIQUE, pdmn TEXT NOT NULL,
                version INTEGER NOT NULL, wrappedkey BLOB NOT NULL, meta BLOB NOT NULL, secret BLOB NOT NULL,
                d_agrp BLOB, d_acct BLOB, f_acct BLOB, d_labl BLOB);
            """
        return try ItemStore(
            database: try Database(path: temporaryPath()), tables: [spec],
            migrations: [Migration(version: 1, identifier: "v1 items", sql: schema)])
    }

    /// Digest values by column name, in the spec's order.
    private func values(_ named: [String: [UInt8]]) -> [[UInt8]?] { spec.digestColumns.map { named[$0] } }

    private func row(_ digests: [String: [UInt8]]) -> StoredRow {
        StoredRow(
            uuid: Array(repeating: 7, count: 16), primaryKeyDigest: [1, 2, 3], protection: "ak", version: 3,
            wrappedKey: [4], metadata: [5], secret: [6], digests: values(digests))
    }

    @Test func encodesPresentColumnsInOrderWithNamesAndLengths() {
        let binding = spec.indexBinding(values(["d_labl": [0xAA], "d_agrp": [0x01, 0x02]]))
        let expected: [UInt8] =
            [6] + Array("d_agrp".utf8) + [0, 0, 0, 2, 0x01, 0x02] + [6] + Array("d_labl".utf8) + [0, 0, 0, 1, 0xAA]
        #expect(binding == expected)
        #expect(spec.indexBinding(values([:])).isEmpty)
    }

    @Test func aRowWhoseDigestsDoNotFitTheTableIsRefusedAndNothingIsWritten() throws {
        let store = try store()
        defer { store.database.close() }
        var short = row([:])
        short.digests = [[1]]
        #expect(throws: StoreError.self) { try store.insert(short, into: "items") }
        #expect(try store.select(from: "items", where: RowFilter(), reading: [.metadata]).isEmpty)
    }

    @Test func aReadWithTheSecretReturnsTheBindingItWasWrittenWith() throws {
        let store = try store()
        defer { store.database.close() }
        let digests: [String: [UInt8]] = [
            "d_agrp": Array(repeating: 1, count: 16), "d_acct": Array(repeating: 2, count: 16),
            "f_acct": Array(repeating: 3, count: 16),
        ]
        try store.insert(row(digests), into: "items")
        let withSecret = try store.select(from: "items", where: RowFilter(), reading: [.secret])
        #expect(withSecret.first?.indexBinding == spec.indexBinding(values(digests)))
        #expect(withSecret.first?.secret == [6])
        let withoutSecret = try store.select(from: "items", where: RowFilter(), reading: [.metadata])
        #expect(withoutSecret.first?.indexBinding == [])
    }

    @Test func anEmptyDigestIsNotAnAbsentOne() throws {
        // A column set to an empty blob on disk must not read as NULL (it would drop out of the binding).
        let store = try store()
        defer { store.database.close() }
        try store.insert(row(["d_agrp": [1]]), into: "items")
        try store.database.statement("UPDATE items SET d_labl = x''").run()
        let read = try store.select(from: "items", where: RowFilter(), reading: [.secret])
        #expect(read.first?.indexBinding == spec.indexBinding(values(["d_agrp": [1], "d_labl": []])))
        #expect(read.first?.indexBinding != spec.indexBinding(values(["d_agrp": [1]])))
    }

    @Test func columnsFixedByAConditionComeFromItAndMatchTheWrittenBinding() throws {
        // A select that fixes d_agrp and d_acct to one value each does not read them back: its binding still
        // equals the one the row was written with, in the table's column order, including an empty value.
        let store = try store()
        defer { store.database.close() }
        let digests: [String: [UInt8]] = [
            "d_agrp": Array(repeating: 1, count: 16), "d_acct": [], "f_acct": Array(repeating: 3, count: 16),
        ]
        try store.insert(row(digests), into: "items")
        var filter = RowFilter(digestsAnyOf: [("d_acct", [[]]), ("d_agrp", [Array(repeating: 1, count: 16)])])
        let fixed = try store.select(from: "items", where: filter, reading: [.secret])
        #expect(fixed.count == 1)
        #expect(fixed.first?.indexBinding == spec.indexBinding(values(digests)))
        // Several candidate values leave the column to be read from the row.
        filter.digestsAnyOf = [("d_agrp", [Array(repeating: 9, count: 16), Array(repeating: 1, count: 16)])]
        let read = try store.select(from: "items", where: filter, reading: [.secret])
        #expect(read.first?.indexBinding == spec.indexBinding(values(digests)))
    }

    @Test func aConditionMatchesOnlyTheExactBytes() throws {
        // What makes taking a fixed column's value from its condition sound: a BLOB column equals a bound blob only
        // byte for byte (a text with the same bytes, or a longer blob, does not match).
        let store = try store()
        defer { store.database.close() }
        try store.insert(row(["d_agrp": [1]]), into: "items")
        try store.database.statement("UPDATE items SET d_acct = CAST(x'4142' AS TEXT)").run()
        let asBlob = RowFilter(digestsAnyOf: [("d_acct", [[0x41, 0x42]])])
        #expect(try store.select(from: "items", where: asBlob, reading: [.secret]).isEmpty)
        try store.database.statement("UPDATE items SET d_acct = x'414243'").run()
        #expect(try store.select(from: "items", where: asBlob, reading: [.secret]).isEmpty)
        try store.database.statement("UPDATE items SET d_acct = x'4142'").run()
        let read = try store.select(from: "items", where: asBlob, reading: [.secret])
        #expect(read.first?.indexBinding == spec.indexBinding(values(["d_agrp": [1], "d_acct": [0x41, 0x42]])))
    }

    @Test func aShapeMatchesOnlyFiltersWithItsSQL() {
        let filter = RowFilter(digestsAnyOf: [("d_acct", [[1]]), ("d_agrp", [[2], [3]])], limit: 1)
        let shape = SelectShape(table: spec, filter: filter, columns: [.secret])
        #expect(shape.matches(table: spec.name, filter: filter, columns: [.secret]))
        // Other values, same SQL.
        let sameSQL = RowFilter(digestsAnyOf: [("d_acct", [[9]]), ("d_agrp", [[8], [7]])], limit: 1)
        #expect(shape.matches(table: spec.name, filter: sameSQL, columns: [.secret]))
        var other = filter
        other.digestsAnyOf[1].values.append([4])
        #expect(!shape.matches(table: spec.name, filter: other, columns: [.secret]))
        other = filter
        other.digestsAnyOf[0].column = "f_acct"
        #expect(!shape.matches(table: spec.name, filter: other, columns: [.secret]))
        other = filter
        other.limit = nil
        #expect(!shape.matches(table: spec.name, filter: other, columns: [.secret]))
        // The limit's value is bound: any limit shares the statement (a cached one per value would grow without
        // bound with the limits apps ask for).
        other = filter
        other.limit = 7
        #expect(shape.matches(table: spec.name, filter: other, columns: [.secret]))
        #expect(SelectShape(table: spec, filter: other, columns: [.secret]) == shape)
        other = filter
        other.protection = "ak"
        #expect(!shape.matches(table: spec.name, filter: other, columns: [.secret]))
        other = filter
        other.rowidAbove = 0
        #expect(!shape.matches(table: spec.name, filter: other, columns: [.secret]))
        #expect(!shape.matches(table: spec.name, filter: filter, columns: [.metadata]))
        let otherTable = ItemTableSpec(name: "other", digestColumns: spec.digestColumns)
        #expect(!shape.matches(table: otherTable.name, filter: filter, columns: [.secret]))
    }

    @Test func bindingsAndBoundValuesStaySeparateAcrossRowsAndSelects() throws {
        // Each row's binding is rebuilt in one reused buffer, and a select reuses its bind buffer: neither may
        // carry bytes over from the row or the select before.
        let store = try store()
        defer { store.database.close() }
        let long: [String: [UInt8]] = [
            "d_agrp": Array(repeating: 1, count: 16), "d_acct": Array(repeating: 2, count: 200),
            "f_acct": Array(repeating: 3, count: 300), "d_labl": Array(repeating: 4, count: 16),
        ]
        let short: [String: [UInt8]] = ["d_agrp": Array(repeating: 1, count: 16), "d_acct": [5]]
        try store.insert(row(long), into: "items")
        var second = row(short)
        second.uuid = Array(repeating: 8, count: 16)
        second.primaryKeyDigest = [9]
        try store.insert(second, into: "items")
        let both = try store.select(from: "items", where: RowFilter(), reading: [.secret])
        #expect(both.map(\.indexBinding) == [spec.indexBinding(values(long)), spec.indexBinding(values(short))])
        let wide = RowFilter(digestsAnyOf: [("d_acct", [Array(repeating: 2, count: 200), [5], [6]])])
        #expect(try store.select(from: "items", where: wide, reading: [.secret]).count == 2)
        let narrow = RowFilter(digestsAnyOf: [("d_acct", [[5]])], limit: 1)
        let found = try store.select(from: "items", where: narrow, reading: [.secret])
        #expect(found.map(\.uuid) == [second.uuid])
        #expect(found.first?.indexBinding == spec.indexBinding(values(short)))
        let none = RowFilter(digestsAnyOf: [("d_acct", [[6]])], limit: 1)
        #expect(try store.select(from: "items", where: none, reading: [.secret]).isEmpty)
    }

    @Test func aWalkInBatchesReadsEveryRowOnceInOrder() throws {
        let store = try store()
        defer { store.database.close() }
        for index in 0..<7 {
            var next = row([:])
            next.uuid = Array(repeating: UInt8(index), count: 16)
            next.primaryKeyDigest = [UInt8(index)]
            next.protection = index % 2 == 0 ? "ak" : "ck"
            try store.insert(next, into: "items")
        }
        var walked: [UInt8] = []
        var filter = RowFilter(protection: "ak", limit: 2)
        while true {
            let batch = try store.select(from: "items", where: filter, reading: [])
            guard let last = batch.last else { break }
            #expect(batch.count <= 2)
            walked += batch.map { $0.uuid[0] }
            filter.rowidAbove = last.rowid
        }
        #expect(walked == [0, 2, 4, 6])
    }
}
