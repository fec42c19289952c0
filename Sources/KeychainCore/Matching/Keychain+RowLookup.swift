import KeychainStore

/// A row that matched a query, with what was decrypted on the way.
struct MatchedRow: Sendable {
    var row: StoredRow
    var protection: Accessibility
    var attributes: [AttributeKey: AttributeValue]?
    /// The row names a protection class no keychain writes (it was damaged, or changed on disk): it matches on
    /// its digests like any row, and every use that would open it finds it damaged (errSecDecode), so a search
    /// skips and counts it, and a delete can remove it. ``protection`` is then a stand-in.
    var isDamaged: Bool { Accessibility(rawValue: row.protection) == nil }
}

extension Keychain {
    /// The rows of `schema`'s table that match `query` within `groups`, in insertion order, at most `limit`.
    /// Equality on attributes is decided by SQLite on keyed digests; dates, which have no digest column, are
    /// compared after decrypting the candidates' attributes.
    func matchingRows(
        _ query: ItemQuery, schema: ClassSchema, groups: GroupScope, limit: MatchLimit, reading columns: RowColumns,
        store: ItemStore
    ) throws -> [MatchedRow] {
        var filter = RowFilter()
        filter.digestsAnyOf.reserveCapacity(query.attributes.count + 2)
        if case .only(let names) = groups {
            filter.digestsAnyOf.append((ItemTables.accessGroupColumn, try digester.groupDigests(names)))
        }
        switch query.synchronizable {
        case .no:
            filter.digestsAnyOf.append((ItemTables.synchronizableColumn, [digester.synchronizableDigest(false)]))
        case .yes:
            filter.digestsAnyOf.append((ItemTables.synchronizableColumn, [digester.synchronizableDigest(true)]))
        case .any: break
        }
        var dateConditions: [(AttributeKey, AttributeValue)] = []
        // A fixed column order keeps the statement shape, and so the prepared statement, the same per query kind.
        for (key, value) in query.attributes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            // Conditions are validated (a date attribute holds a date, nothing else does): the kind is looked up
            // only where the value alone does not decide it.
            let isDate: Bool
            if case .date = value { isDate = schema.attributes[key] == .date } else { isDate = false }
            if isDate {
                dateConditions.append((key, value))
            } else if query.caseInsensitive, schema.attributes[key] == .text,
                let folded = try digester.queryDigest(key, value, folded: true)
            {
                filter.digestsAnyOf.append((ItemTables.foldedColumn(key), [folded]))
            } else if let digest = try digester.queryDigest(key, value) {
                filter.digestsAnyOf.append((ItemTables.digestColumn(key), [digest]))
            }
        }
        filter.protection = query.accessibility?.rawValue
        filter.uuid = query.persistentReference?.uuid
        let wanted: Int? =
            switch limit {
            case .one: 1
            case .count(let count): count
            case .all: nil
            }
        var columns = columns
        if dateConditions.isEmpty { filter.limit = wanted } else { columns.insert(.metadata) }

        let rows = try store.select(from: schema.itemClass.rawValue, where: filter, reading: columns)
        var matches: [MatchedRow] = []
        matches.reserveCapacity(rows.count)
        for row in rows {
            guard let protection = Accessibility(rawValue: row.protection) else {
                // A date condition needs the attributes, which such a row cannot give: it matches none.
                if dateConditions.isEmpty {
                    matches.append(MatchedRow(row: row, protection: .whenUnlocked, attributes: nil))
                }
                if let wanted, matches.count >= wanted { break }
                continue
            }
            if dateConditions.isEmpty {
                matches.append(MatchedRow(row: row, protection: protection, attributes: nil))
            } else {
                let match = MatchedRow(row: row, protection: protection, attributes: nil)
                let attributes = try openAttributes(of: match, schema: schema)
                guard dateConditions.allSatisfy({ attributes[$0.0] == $0.1 }) else { continue }
                matches.append(MatchedRow(row: row, protection: protection, attributes: attributes))
            }
            if let wanted, matches.count >= wanted { break }
        }
        return matches
    }

    /// - Throws: errSecDecode for a row whose protection class is unknown.
    func refuseDamaged(_ match: MatchedRow) throws {
        guard match.isDamaged else { return }
        throw KeychainError.decode.because("an item has an unknown protection class")
    }

    func sealer(for row: StoredRow, schema: ClassSchema, protection: Accessibility) -> ItemSealer {
        ItemSealer(
            table: schema.itemClass.rawValue, uuid: row.uuid, protection: protection, version: row.version,
            indexBinding: row.indexBinding)
    }

    /// Decrypts a matched row's attributes.
    func openAttributes(of match: MatchedRow, schema: ClassSchema) throws -> [AttributeKey: AttributeValue] {
        if let attributes = match.attributes { return attributes }
        try refuseDamaged(match)
        let sealer = sealer(for: match.row, schema: schema, protection: match.protection)
        let itemKey = try itemKey(wrapped: match.row.wrappedKey, sealer: sealer, protection: match.protection)
        return try sealer.openAttributes(match.row.metadata, itemKey: itemKey)
    }
}
