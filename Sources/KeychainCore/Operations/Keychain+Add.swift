import KeychainCrypto
import KeychainStore

extension Keychain {
    /// Adds an item (`SecItemAdd`). Returns what `item.returns` asks for, or nil when it asks for nothing.
    /// - Throws: `errSecDuplicateItem` when an item with the same primary key exists; `errSecParam`,
    ///   `errSecNoSuchAttr`, `errSecMissingEntitlement`, `errSecUnimplemented` for invalid requests.
    @discardableResult
    public func add(_ item: NewItem) throws -> ItemResult? {
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

        let index = try indexRow(attributes, schema: schema)
        let uuid = try SystemRandom.bytes(16)
        let sealer = ItemSealer(table: schema.itemClass.rawValue, uuid: uuid, protection: protection,
                                version: ItemSealer.formatVersion)
        let sealed = try sealer.seal(attributes: attributes, secret: item.data ?? [], classKey: try classKey(protection))
        let row = StoredRow(
            uuid: uuid, primaryKeyDigest: index.primaryKey, protection: protection.rawValue,
            version: ItemSealer.formatVersion, wrappedKey: sealed.wrappedKey, metadata: sealed.metadata,
            secret: sealed.secret, digests: index.digests)
        let primaryKey = describePrimaryKey(attributes, schema: schema)
        do {
            try withStore { store in
                try store.database.writeTransaction { try store.insert(row, into: schema.itemClass.rawValue) }
            }
        } catch KeychainError.duplicateItem {
            throw KeychainError.duplicateItem.because(
                "an item with the same primary key exists (\(primaryKey)); use SecItemUpdate to change it")
        }
        guard !item.returns.isEmpty else { return nil }
        var stored = row
        stored.secret = sealed.secret
        let match = MatchedRow(row: stored, protection: protection, attributes: attributes)
        return try result(for: match, schema: schema, returns: item.returns)
    }
}
