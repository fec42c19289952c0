/// Which of the sealed columns a read needs.
package struct RowColumns: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let metadata = RowColumns(rawValue: 1)
    /// The sealed secret, with the digest columns its seal binds (``StoredRow/indexBinding``).
    package static let secret = RowColumns(rawValue: 2)
}

/// The shape of a select: everything that decides its SQL text, and nothing of its values.
struct SelectShape: Hashable {
    let table: String
    let digestColumns: [String]
    let valueCounts: [Int]
    let byProtection: Bool
    let byUUID: Bool
    let byVersion: Bool
    let byRowid: Bool
    /// Whether the select has a limit; its value is bound, so that every limit shares one prepared statement.
    let hasLimit: Bool
    let columns: RowColumns

    init(table: ItemTableSpec, filter: RowFilter, columns: RowColumns) {
        self.table = table.name
        digestColumns = filter.digestsAnyOf.map { $0.column }
        valueCounts = filter.digestsAnyOf.map { $0.values.count }
        byProtection = filter.protection != nil
        byUUID = filter.uuid != nil
        byVersion = filter.versionBelow != nil
        byRowid = filter.rowidAbove != nil
        hasLimit = filter.limit != nil
        self.columns = columns
    }

    /// Whether a select with `filter` and `columns` on the table named `name` has this shape, compared in place:
    /// the common case of the same shape as the last select costs no arrays.
    func matches(table name: String, filter: RowFilter, columns: RowColumns) -> Bool {
        guard columns == self.columns, hasLimit == (filter.limit != nil), byProtection == (filter.protection != nil),
            byUUID == (filter.uuid != nil), byVersion == (filter.versionBelow != nil),
            byRowid == (filter.rowidAbove != nil), digestColumns.count == filter.digestsAnyOf.count, table == name
        else { return false }
        for (index, condition) in filter.digestsAnyOf.enumerated()
        where digestColumns[index] != condition.column || valueCounts[index] != condition.values.count {
            return false
        }
        return true
    }

    // Hashing only the cheap parts: equal shapes still hash alike, and equality compares everything.
    func hash(into hasher: inout Hasher) {
        hasher.combine(digestColumns.count)
        for count in valueCounts { hasher.combine(count) }
        hasher.combine(hasLimit)
        hasher.combine(byProtection)
        hasher.combine(byUUID)
        hasher.combine(byVersion)
        hasher.combine(byRowid)
        hasher.combine(columns.rawValue)
        hasher.combine(digestColumns.last?.utf8.count ?? 0)
    }

    /// Where the select finds each digest column of the secret's index binding (``StoredRow/indexBinding``); nil
    /// when it does not read the secret. A column that a condition fixes to one value (`d_acct = ?`) holds exactly
    /// that value in every row the select returns, since SQL equality on a BLOB column is byte equality: its part
    /// of the binding comes from the condition, and the select does not read it back (each blob column read costs
    /// SQLite an allocation). The others are read after the sealed columns.
    func bindingPlan(_ spec: ItemTableSpec) -> BindingPlan? {
        guard columns.contains(.secret) else { return nil }
        var plan = BindingPlan()
        for column in spec.digestColumns {
            if let condition = digestColumns.indices.first(where: {
                digestColumns[$0] == column && valueCounts[$0] == 1
            }) {
                plan.sources.append(.condition(condition))
            } else {
                plan.sources.append(.column(BindingPlan.firstReadColumn + plan.readColumns.count))
                plan.readColumns.append(column)
            }
        }
        return plan
    }

    func sql(binding: BindingPlan?) -> String {
        let metadata = columns.contains(.metadata) ? "meta" : "x''"
        let secret = columns.contains(.secret) ? "secret" : "x''"
        let bound = (binding?.readColumns ?? []).map { ", " + $0 }.joined()
        var sql = "SELECT rowid, uuid, pdmn, version, wrappedkey, \(metadata), \(secret)\(bound) FROM \(table)"
        var conditions: [String] = []
        if byUUID { conditions.append("uuid = ?") }
        for (column, count) in zip(digestColumns, valueCounts) {
            conditions.append(
                count == 1
                    ? "\(column) = ?" : "\(column) IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))")
        }
        if byProtection { conditions.append("pdmn = ?") }
        if byVersion { conditions.append("version < ?") }
        if byRowid { conditions.append("rowid > ?") }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY rowid"
        if hasLimit { sql += " LIMIT ?" }
        return sql
    }

    /// Binds `filter`'s values to `statement`, in the order of ``sql(binding:)``.
    func bind(_ filter: RowFilter, to statement: Statement) throws {
        var byteCount = (filter.uuid?.count ?? 0) + (filter.protection?.utf8.count ?? 0)
        for (_, candidates) in filter.digestsAnyOf {
            for candidate in candidates { byteCount += candidate.count }
        }
        try statement.bind(byteCount: byteCount) { parameters in
            if let uuid = filter.uuid { try parameters.blob(uuid) }
            for (_, candidates) in filter.digestsAnyOf {
                for candidate in candidates { try parameters.blob(candidate) }
            }
            if let protection = filter.protection { try parameters.text(protection) }
            if let version = filter.versionBelow { try parameters.integer(version) }
            if let rowid = filter.rowidAbove { try parameters.integer(rowid) }
            if let limit = filter.limit { try parameters.integer(Int64(limit)) }
        }
    }
}

/// How a select rebuilds each row's index binding: per digest column of the table, in order, its source.
struct BindingPlan {
    /// The result column of the first digest column read (after rowid, uuid, pdmn, version, wrappedkey, meta, secret).
    static let firstReadColumn = 7

    enum Source {
        /// The single value of the filter's condition at this index in `digestsAnyOf`.
        case condition(Int)
        /// The result column at this index; NULL leaves the column out of the binding.
        case column(Int)
    }

    var sources: [Source] = []
    /// The digest columns the select reads, in result order.
    var readColumns: [String] = []
}
