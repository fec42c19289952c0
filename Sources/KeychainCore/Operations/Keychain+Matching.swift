import KeychainStore

/// A row that matched a query, with what was decrypted on the way.
struct MatchedRow: Sendable {
    var row: StoredRow
    var protection: Accessibility
    var attributes: [AttributeKey: AttributeValue]?
}

extension Keychain {
    /// The rows of `schema`'s table that match `query` within `groups`, in insertion order, at most `limit`.
    /// Equality on attributes is decided by SQLite on keyed digests; dates, which have no digest column, are
    /// compared after decrypting the candidates' attributes.
    func matchingRows(
        _ query: ItemQuery, schema: ClassSchema, groups: [String], limit: MatchLimit, reading columns: RowColumns,
        store: ItemStore
    ) throws -> [MatchedRow] {
        var filter = RowFilter()
        filter.digestsAnyOf.append(
            (
                ItemTables.digestColumn(.accessGroup),
                try groups.map { try digester.recurringDigest(.accessGroup, .string($0)) }
            ))
        switch query.synchronizable {
        case .no:
            filter.digestsAnyOf.append(
                (
                    ItemTables.digestColumn(.synchronizable),
                    [try digester.recurringDigest(.synchronizable, .bool(false))]
                ))
        case .yes:
            filter.digestsAnyOf.append(
                (ItemTables.digestColumn(.synchronizable), [try digester.recurringDigest(.synchronizable, .bool(true))])
            )
        case .any: break
        }
        var dateConditions: [(AttributeKey, AttributeValue)] = []
        // A fixed column order keeps the statement shape, and so the prepared statement, the same per query kind.
        for (key, value) in query.attributes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let kind = schema.attributes[key]
            if kind == .date {
                dateConditions.append((key, value))
            } else if query.caseInsensitive, kind == .text, let folded = try digester.foldedDigest(key, value) {
                filter.digestsAnyOf.append((ItemTables.foldedColumn(key), [folded]))
            } else {
                filter.digestsAnyOf.append((ItemTables.digestColumn(key), [try digester.digest(key, value)]))
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

        var matches: [MatchedRow] = []
        for row in try store.select(from: schema.itemClass.rawValue, where: filter, reading: columns) {
            guard let protection = Accessibility(rawValue: row.protection) else {
                throw KeychainError.decode.because("an item has an unknown protection class")
            }
            var match = MatchedRow(row: row, protection: protection, attributes: nil)
            if !dateConditions.isEmpty {
                let attributes = try openAttributes(of: match, schema: schema)
                guard dateConditions.allSatisfy({ attributes[$0.0] == $0.1 }) else { continue }
                match.attributes = attributes
            }
            matches.append(match)
            if let wanted, matches.count >= wanted { break }
        }
        return matches
    }

    func sealer(for row: StoredRow, schema: ClassSchema, protection: Accessibility) -> ItemSealer {
        ItemSealer(table: schema.itemClass.rawValue, uuid: row.uuid, protection: protection, version: row.version)
    }

    /// Decrypts a matched row's attributes.
    func openAttributes(of match: MatchedRow, schema: ClassSchema) throws -> [AttributeKey: AttributeValue] {
        if let attributes = match.attributes { return attributes }
        let sealer = sealer(for: match.row, schema: schema, protection: match.protection)
        let itemKey = try sealer.itemKey(wrapped: match.row.wrappedKey, classKey: try classKey(match.protection))
        return try sealer.openAttributes(match.row.metadata, itemKey: itemKey)
    }

    /// Builds what the caller asked to have returned for one matched row. With a `check`, the row's decrypted
    /// attributes must satisfy the query too: lookups compare digests in SQL, and digests are not bound to
    /// the row, so a row whose digest columns were swapped with another's must not hand out its secret.
    /// - Throws: `errSecDecode` for such a row; `errSecInteractionNotAllowed` when its class is unavailable.
    /// - Parameters:
    ///   - authentication: how a constrained item's secret may be authenticated for.
    ///   - suppliedSecret: the secret the caller just added, returned as is for a constrained item.
    func result(
        for match: MatchedRow, schema: ClassSchema, returns: ReturnOptions, check: AttributeMatcher? = nil,
        authentication: ReadAuthentication = ReadAuthentication(), suppliedSecret: [UInt8]? = nil
    ) throws -> ItemResult {
        let reference = PersistentReference(itemClass: schema.itemClass, uuid: match.row.uuid)
        let sealer = sealer(for: match.row, schema: schema, protection: match.protection)
        // Even a search that returns no contents reveals the item; it needs the class to be available.
        let itemKey = try sealer.itemKey(wrapped: match.row.wrappedKey, classKey: try classKey(match.protection))
        // A key's or certificate's reference object is made from its value; a password has none.
        let readsValue = Self.readsValue(returns, schema: schema)
        var attributes: [AttributeKey: AttributeValue]? = match.attributes
        if attributes == nil, returns.contains(.attributes) {
            attributes = try sealer.openAttributes(match.row.metadata, itemKey: itemKey)
        } else if attributes == nil, let check {
            let wanted = check.keys + (readsValue ? [AccessControlPolicy.attributeKey] + schema.describesValue : [])
            attributes = try sealer.openAttributes(match.row.metadata, itemKey: itemKey, only: wanted)
        }
        if let check, let attributes, !check.holds(for: attributes, schema: schema, protection: match.protection) {
            throw KeychainError.decode.because("an item's index does not match its contents (the row is damaged)")
        }
        var returned: [AttributeKey: AttributeValue]? = nil
        if returns.contains(.attributes), var opened = attributes {
            opened[.accessible] = .string(match.protection.rawValue)
            returned = opened
        }
        if readsValue, attributes == nil {
            attributes = try sealer.openAttributes(
                match.row.metadata, itemKey: itemKey, only: [AccessControlPolicy.attributeKey] + schema.describesValue)
        }
        // The access control is decoded here, once, and reaches the caller typed.
        let policy = try attributes.flatMap(storedPolicy)
        var data: Secret?
        if readsValue {
            if let policy {
                if let suppliedSecret {
                    data = Secret(suppliedSecret)
                } else {
                    data = Secret(
                        try openConstrained(
                            match.row.secret, policy: policy, sealer: sealer, itemKey: itemKey,
                            authentication: authentication))
                }
            } else {
                data = Secret(try sealer.openSecret(match.row.secret, itemKey: itemKey))
            }
        }
        let value = try data.map { try Self.itemValue($0, schema: schema, attributes: attributes ?? [:]) }
        var result = ItemResult(
            itemClass: schema.itemClass, value: value, attributes: returned,
            persistentReference: returns.contains(.persistentReference) ? reference : nil)
        if returned != nil { result.accessControl = policy }
        return result
    }

    /// Whether a result needs the item's value: for `.data`, and for `.reference` of a class whose reference
    /// object is made from it (keys, certificates).
    static func readsValue(_ returns: ReturnOptions, schema: ClassSchema) -> Bool {
        returns.contains(.data) || (returns.contains(.reference) && schema.valueKind != .secret)
    }

    /// The typed value of an item from its decrypted secret column and the attributes that describe it.
    /// - Throws: errSecDecode when a key item's describing attributes are missing (the row is damaged).
    static func itemValue(_ bytes: Secret, schema: ClassSchema, attributes: [AttributeKey: AttributeValue]) throws
        -> ItemValue
    {
        switch schema.valueKind {
        case .secret: return .secret(bytes)
        case .certificate: return .certificate(CertificateValue(derBytes: bytes.bytes))
        case .identity:
            throw KeychainError(
                SecurityStatus.internalComponent, reason: "an identity is joined from two items, never read as one")
        case .key:
            guard case .number(let type)? = attributes[.keyType], case .number(let keyClass)? = attributes[.keyClass],
                case .number(let bits)? = attributes[.keySizeInBits]
            else { throw KeychainError.decode.because("a key item lacks its type, class or size (the row is damaged)") }
            return .key(KeyValue(keyType: String(type), keyClass: String(keyClass), sizeInBits: Int(bits),
                                 externalRepresentation: bytes))
        }
    }

    /// The digest columns and primary-key digest of an item with `attributes` (which hold agrp and sync).
    func indexRow(_ attributes: [AttributeKey: AttributeValue], schema: ClassSchema) throws
        -> (primaryKey: [UInt8], digests: [String: [UInt8]])
    {
        var digests: [String: [UInt8]] = [:]
        for key in schema.indexedAttributes {
            guard let value = attributes[key] ?? (schema.primaryKey.contains(key) ? schema.defaultValue(for: key) : nil)
            else { continue }
            digests[ItemTables.digestColumn(key)] = try digester.digest(key, value)
            if schema.attributes[key] == .text, let folded = try digester.foldedDigest(key, value) {
                digests[ItemTables.foldedColumn(key)] = folded
            }
        }
        let group = attributes[.accessGroup] ?? .string("")
        let sync = attributes[.synchronizable] ?? .bool(false)
        digests[ItemTables.digestColumn(.accessGroup)] = try digester.recurringDigest(.accessGroup, group)
        digests[ItemTables.digestColumn(.synchronizable)] = try digester.recurringDigest(.synchronizable, sync)
        var parts = schema.primaryKey.map { ($0, attributes[$0] ?? schema.defaultValue(for: $0)) }
        parts.append((.accessGroup, group))
        parts.append((.synchronizable, sync))
        return (try digester.primaryKeyDigest(schema.itemClass, parts), digests)
    }

    /// A one-line description of an item's primary key for explanations (never the secret).
    func describePrimaryKey(_ attributes: [AttributeKey: AttributeValue], schema: ClassSchema) -> String {
        let keys = schema.primaryKey + [.accessGroup, .synchronizable]
        return keys.map { key in
            let value = attributes[key] ?? (key == .synchronizable ? .bool(false) : schema.defaultValue(for: key))
            return "\(key.rawValue)=\(Self.display(value))"
        }.joined(separator: ", ")
    }

    static func display(_ value: AttributeValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .data(let bytes): "<\(bytes.count) bytes>"
        case .number(let number): "\(number)"
        case .bool(let flag): flag ? "true" : "false"
        case .date(let date):
            AttributeValue.isValidDate(date)
                ? "\(date)" : "an invalid date (\(date.timeIntervalSinceReferenceDate) seconds since 2001)"
        }
    }
}
