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
    let limit: Int?
    let columns: RowColumns
    /// The digest columns read after the sealed ones, for the secret's index binding (empty without the secret).
    let boundColumns: [String]

    init(table: ItemTableSpec, filter: RowFilter, columns: RowColumns) {
        self.table = table.name
        boundColumns = columns.contains(.secret) ? table.digestColumns : []
        digestColumns = filter.digestsAnyOf.map { $0.column }
        valueCounts = filter.digestsAnyOf.map { $0.values.count }
        byProtection = filter.protection != nil
        byUUID = filter.uuid != nil
        byVersion = filter.versionBelow != nil
        limit = filter.limit
        self.columns = columns
    }

    // Hashing only the cheap parts: equal shapes still hash alike, and equality compares everything.
    func hash(into hasher: inout Hasher) {
        hasher.combine(digestColumns.count)
        for count in valueCounts { hasher.combine(count) }
        hasher.combine(limit)
        hasher.combine(byProtection)
        hasher.combine(byUUID)
        hasher.combine(byVersion)
        hasher.combine(columns.rawValue)
        hasher.combine(digestColumns.last?.utf8.count ?? 0)
    }

    var sql: String {
        let metadata = columns.contains(.metadata) ? "meta" : "x''"
        let secret = columns.contains(.secret) ? "secret" : "x''"
        let bound = boundColumns.map { ", " + $0 }.joined()
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
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY rowid"
        if let limit { sql += " LIMIT \(limit)" }
        return sql
    }

    /// The values to bind, in the order of ``sql``.
    func values(_ filter: RowFilter) -> [SQLValue] {
        var values: [SQLValue] = []
        values.reserveCapacity(valueCounts.reduce(2, +))
        if let uuid = filter.uuid { values.append(.blob(uuid)) }
        for (_, candidates) in filter.digestsAnyOf {
            for candidate in candidates { values.append(.blob(candidate)) }
        }
        if let protection = filter.protection { values.append(.text(protection)) }
        if let version = filter.versionBelow { values.append(.integer(version)) }
        return values
    }
}
