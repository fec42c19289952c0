/// Index rows: the keyed digest columns and the primary-key digest a write stores beside the sealed item, so
/// lookups and uniqueness are decided by SQLite without decrypting.
extension Keychain {
    /// The digest columns and primary-key digest of an item with `attributes` (which hold agrp and sync), and
    /// the binding of those columns that the item's secret seal authenticates.
    func indexRow(_ attributes: [AttributeKey: AttributeValue], schema: ClassSchema) throws
        -> (primaryKey: [UInt8], digests: [String: [UInt8]], binding: [UInt8])
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
        return (
            try digester.primaryKeyDigest(schema.itemClass, parts), digests,
            ItemTables.spec(schema).indexBinding(digests)
        )
    }
}
