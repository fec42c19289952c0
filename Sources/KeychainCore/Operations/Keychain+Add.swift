import KeychainCrypto
import KeychainStore

/// A validated, encrypted item ready to insert.
struct PreparedItem {
    let schema: ClassSchema
    let row: StoredRow
    let protection: Accessibility
    let attributes: [AttributeKey: AttributeValue]
}

extension Keychain {
    /// Adds an item (`SecItemAdd`). Returns what `item.returns` asks for, or nil when it asks for nothing.
    /// - Throws: `errSecDuplicateItem` when an item with the same primary key exists; `errSecParam`,
    ///   `errSecNoSuchAttr`, `errSecMissingEntitlement`, `errSecUnimplemented` for invalid requests.
    @discardableResult
    public func add(_ item: NewItem) throws -> ItemResult? {
        let prepared = try prepare(item)
        try insert([prepared])
        guard !item.returns.isEmpty else { return nil }
        let match = MatchedRow(row: prepared.row, protection: prepared.protection, attributes: prepared.attributes)
        return try result(for: match, schema: prepared.schema, returns: item.returns)
    }

    /// Adds several items in one transaction: all of them, or, if any is invalid or a duplicate, none.
    /// - Throws: the first item's failure, as ``add(_:)`` would report it.
    public func add(contentsOf items: [NewItem]) throws {
        try insert(try items.map(prepare))
    }

    private func insert(_ items: [PreparedItem]) throws {
        var current: PreparedItem?
        do {
            try withStore { store in
                try store.database.writeTransaction {
                    for item in items {
                        current = item
                        try store.insert(item.row, into: item.schema.itemClass.rawValue)
                    }
                }
            }
        } catch KeychainError.duplicateItem {
            let description = current.map { describePrimaryKey($0.attributes, schema: $0.schema) } ?? ""
            throw KeychainError.duplicateItem.because(
                "an item with the same primary key exists (\(description)); use SecItemUpdate to change it")
        }
    }

    /// Validates an add and encrypts the new item.
    private func prepare(_ item: NewItem) throws -> PreparedItem {
        let schema = try schema(item.itemClass)
        try validate(item.attributes, in: schema, writing: true)
        try validate(data: item.data)
        let group = try writeGroup(item.accessGroup)
        let protection = try protection(
            accessibility: item.accessibility, accessControl: item.accessControl, synchronizable: item.synchronizable)

        var attributes = item.attributes
        for key in schema.primaryKey where attributes[key] == nil {
            attributes[key] = schema.defaultValue(for: key)
        }
        attributes[.accessGroup] = .string(group)
        attributes[.synchronizable] = .bool(item.synchronizable)
        let now = configuration.clock()
        attributes[.creationDate] = .date(now)
        attributes[.modificationDate] = .date(now)
        return try prepare(attributes, secret: item.data ?? [], schema: schema, protection: protection,
                           uuid: try SystemRandom.bytes(16))
    }

    /// Encrypts an item whose attributes are complete (group, sync and dates included) under a given UUID:
    /// what an add does once validated, and what a restore does with an item from a backup.
    func prepare(
        _ attributes: [AttributeKey: AttributeValue], secret: [UInt8], schema: ClassSchema, protection: Accessibility,
        uuid: [UInt8]
    ) throws -> PreparedItem {
        let index = try indexRow(attributes, schema: schema)
        let sealer = ItemSealer(table: schema.itemClass.rawValue, uuid: uuid, protection: protection,
                                version: ItemSealer.formatVersion)
        let sealed = try sealer.seal(attributes: attributes, secret: secret, classKey: try classKey(protection))
        let row = StoredRow(
            uuid: uuid, primaryKeyDigest: index.primaryKey, protection: protection.rawValue,
            version: ItemSealer.formatVersion, wrappedKey: sealed.wrappedKey, metadata: sealed.metadata,
            secret: sealed.secret, digests: index.digests)
        return PreparedItem(schema: schema, row: row, protection: protection, attributes: attributes)
    }
}
