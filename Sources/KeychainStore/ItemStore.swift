/// The item tables over one ``Database``: typed inserts, reads, updates and deletes of ``StoredRow``s.
/// All SQL for items lives here. Not thread-safe, like the database it uses.
package final class ItemStore {
    package let database: Database
    private let tables: [String: ItemTableSpec]
    // Lookups come in few shapes; preparing each shape once keeps SQL text out of the per-call path.
    private var selectStatements: [SelectShape: PreparedSelect] = [:]
    // The last select's shape: lookups mostly repeat it, and comparing a filter with it in place is cheaper than
    // building a shape to look up.
    private var lastSelect: PreparedSelect?
    // One insert statement per table, found by the table's short name rather than by its long SQL text.
    private var insertStatements: [String: Statement] = [:]
    // Where a select rebuilds each row's index binding before copying it into the row.
    private var bindingScratch = BindingScratch()

    /// Opens the store, bringing its schema up to date with `migrations` (the owner's frozen history), and
    /// reads and writes the columns `tables` name.
    package init(database: Database, tables: [ItemTableSpec], migrations: [Migration]) throws {
        self.database = database
        self.tables = Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0) })
        try database.migrate(migrations)
    }

    /// The columns `table` has in the database, for checking that the history creates what `tables` name.
    package func columns(of table: String) throws -> [String] {
        try database.statement("PRAGMA table_info(\(table))").rows().compactMap { $0[1].textValue }
    }

    private func spec(_ table: String) -> ItemTableSpec {
        guard let spec = tables[table] else { preconditionFailure("unknown item table \(table)") }
        return spec
    }

    /// Inserts `row`; returns its rowid. A primary-key collision throws a ``StoreError`` with
    /// `isUniqueViolation`.
    @discardableResult
    package func insert(_ row: StoredRow, into table: String) throws -> Int64 {
        let columns = spec(table).digestColumns
        let statement: Statement
        if let prepared = insertStatements[table] {
            statement = prepared
        } else {
            let names = ["uuid", "pkey", "pdmn", "version", "wrappedkey", "meta", "secret"] + columns
            let placeholders = names.map { _ in "?" }.joined(separator: ", ")
            statement = try Statement(
                database: database,
                sql: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(placeholders))")
            insertStatements[table] = statement
        }
        try Self.checkDigests(row, columns: columns, table: table)
        var values: [SQLValue] = [
            .blob(row.uuid), .blob(row.primaryKeyDigest), .text(row.protection), .integer(row.version),
            .blob(row.wrappedKey), .blob(row.metadata), .blob(row.secret),
        ]
        values.reserveCapacity(values.count + columns.count)
        for digest in row.digests { values.append(digest.map(SQLValue.blob) ?? .null) }
        try statement.run(values)
        return database.lastInsertRowid
    }

    /// A row to write carries one value (or nil) per digest column of its table, in the table's order.
    private static func checkDigests(_ row: StoredRow, columns: [String], table: String) throws {
        guard row.digests.count == columns.count else {
            throw StoreError(
                .error,
                message: "a row for \(table) has \(row.digests.count) digest values for \(columns.count) columns")
        }
    }

    /// Rewrites every stored field of the row with `row.rowid`.
    package func replace(_ row: StoredRow, in table: String) throws {
        let columns = spec(table).digestColumns
        try Self.checkDigests(row, columns: columns, table: table)
        let assignments = (["pkey", "pdmn", "version", "wrappedkey", "meta", "secret"] + columns).map { "\($0) = ?" }
        let sql = "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE rowid = ?"
        var values: [SQLValue] = [
            .blob(row.primaryKeyDigest), .text(row.protection), .integer(row.version), .blob(row.wrappedKey),
            .blob(row.metadata), .blob(row.secret),
        ]
        values += row.digests.map { $0.map(SQLValue.blob) ?? .null }
        values.append(.integer(row.rowid))
        try database.statement(sql).run(values)
    }

    /// Replaces a row's sealed columns (its wrapped item key, attributes and secret) and nothing else: a new item
    /// key for the same contents, so no digest column or index changes.
    package func replaceSeal(_ row: StoredRow, in table: String) throws {
        try database.statement("UPDATE \(table) SET wrappedkey = ?, meta = ?, secret = ? WHERE rowid = ?").run([
            .blob(row.wrappedKey), .blob(row.metadata), .blob(row.secret), .integer(row.rowid),
        ])
    }

    /// Reads the rows that pass `filter`, in insertion order. The sealed attributes and secret are read only
    /// when asked for; otherwise they come back empty.
    package func select(from table: String, where filter: RowFilter, reading columns: RowColumns) throws
        -> [StoredRow]
    {
        let prepared: PreparedSelect
        if let last = lastSelect, last.shape.matches(table: table, filter: filter, columns: columns) {
            prepared = last
        } else {
            let spec = self.spec(table)
            let shape = SelectShape(table: spec, filter: filter, columns: columns)
            if let cached = selectStatements[shape] {
                prepared = cached
            } else {
                let binding = shape.bindingPlan(spec)
                prepared = PreparedSelect(
                    shape: shape, spec: spec,
                    statement: try Statement(database: database, sql: shape.sql(binding: binding)), binding: binding)
                selectStatements[shape] = prepared
            }
            lastSelect = prepared
        }
        try prepared.shape.bind(filter, to: prepared.statement)
        return try readRows(
            prepared.statement, spec: prepared.spec, binding: prepared.binding, filter: filter, limit: filter.limit)
    }

    /// A prepared select, its shape, and how it rebuilds each row's index binding. A class: the last one is
    /// handed out on every lookup, and a reference is cheaper to copy than its fields.
    private final class PreparedSelect {
        let shape: SelectShape
        let spec: ItemTableSpec
        let statement: Statement
        let binding: BindingPlan?

        init(shape: SelectShape, spec: ItemTableSpec, statement: Statement, binding: BindingPlan?) {
            self.shape = shape
            self.spec = spec
            self.statement = statement
            self.binding = binding
        }
    }

    /// Steps `statement` (whose columns are rowid, uuid, pdmn, version, wrappedkey, meta, secret, then the digest
    /// columns `binding` reads) to the end; with `binding`, rebuilds each row's index binding from those columns
    /// and the filter's single-valued conditions.
    private func readRows(
        _ statement: Statement, spec: ItemTableSpec, binding: BindingPlan? = nil, filter: RowFilter = RowFilter(),
        limit: Int? = nil
    ) throws -> [StoredRow] {
        defer { statement.reset() }
        var rows: [StoredRow] = []
        // At the select's own LIMIT there is no further row: the reset ends the statement without another step.
        while rows.count < limit ?? .max, try statement.step() {
            var row = StoredRow(
                rowid: statement.integer(0), uuid: statement.blob(1), primaryKeyDigest: [],
                protection: statement.text(2), version: statement.integer(3), wrappedKey: statement.blob(4),
                metadata: statement.blob(5), secret: statement.blob(6), digests: [])
            if let plan = binding {
                row.indexBinding = Self.indexBinding(
                    statement, spec: spec, plan: plan, filter: filter, scratch: &bindingScratch)
            }
            rows.append(row)
        }
        return rows
    }

    /// The current row's index binding, rebuilt in `scratch` from the filter's single-valued conditions and the
    /// digest columns the select read.
    private static func indexBinding(
        _ statement: Statement, spec: ItemTableSpec, plan: BindingPlan, filter: RowFilter,
        scratch: inout BindingScratch
    ) -> [UInt8] {
        scratch.removeAll()
        for (offset, source) in plan.sources.enumerated() {
            switch source {
            case .condition(let condition):
                filter.digestsAnyOf[condition].values[0].withUnsafeBytes {
                    spec.appendBinding(column: offset, value: $0, to: &scratch)
                }
            case .column(let column):
                statement.withColumnBytes(column) { value in
                    guard let value else { return }
                    spec.appendBinding(column: offset, value: value, to: &scratch)
                }
            }
        }
        return scratch.bytes
    }

    /// Reads at most `limit` rows whose `within` column holds one of its values (any row, without `within`) and
    /// that satisfy at least one of `anyOf` (the digest conditions are OR-ed), in insertion order, with their
    /// sealed attributes. For the engine's explanations of failed calls: it runs on the failure path only, so its
    /// statement is not cached.
    package func selectNearby(
        from table: String, within: (column: String, values: [[UInt8]])?, anyOf: [(column: String, value: [UInt8])],
        limit: Int
    ) throws -> [StoredRow] {
        let known = Set(spec(table).digestColumns)
        precondition(
            within.map { known.contains($0.column) } != false && anyOf.allSatisfy { known.contains($0.column) },
            "unknown digest column")
        guard within?.values.isEmpty != true, limit > 0 else { return [] }
        var conditions: [String] = []
        if let within {
            let placeholders = Array(repeating: "?", count: within.values.count).joined(separator: ", ")
            conditions.append("\(within.column) IN (\(placeholders))")
        }
        if !anyOf.isEmpty {
            conditions.append("(" + anyOf.map { "\($0.column) = ?" }.joined(separator: " OR ") + ")")
        }
        var sql = "SELECT rowid, uuid, pdmn, version, wrappedkey, meta, x'' FROM \(table)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY rowid LIMIT \(limit)"
        let statement = try Statement(database: database, sql: sql)
        try statement.bind((within?.values ?? []).map(SQLValue.blob) + anyOf.map { SQLValue.blob($0.value) })
        return try readRows(statement, spec: spec(table))
    }

    /// Deletes the rows with the given rowids; returns how many went.
    @discardableResult
    package func delete(rowids: [Int64], from table: String) throws -> Int {
        var deleted = 0
        let statement = try database.statement("DELETE FROM \(table) WHERE rowid = ?")
        for rowid in rowids {
            try statement.run([.integer(rowid)])
            deleted += database.changes
        }
        return deleted
    }

    /// Whether any table holds a row (of `protection`, when given). A read: it takes no write lock.
    package func holdsRows(protection: String? = nil) throws -> Bool {
        for table in tables.keys.sorted() {
            let rows: [[SQLValue]]
            if let protection {
                rows = try database.statement("SELECT 1 FROM \(table) WHERE pdmn = ? LIMIT 1").rows([.text(protection)])
            } else {
                rows = try database.statement("SELECT 1 FROM \(table) LIMIT 1").rows()
            }
            if !rows.isEmpty { return true }
        }
        return false
    }

    /// Deletes every row of one protection class; returns how many went.
    @discardableResult
    package func deleteAll(protection: String, from table: String) throws -> Int {
        try database.statement("DELETE FROM \(table) WHERE pdmn = ?").run([.text(protection)])
        return database.changes
    }

}

@available(*, unavailable)
extension ItemStore: Sendable {}
