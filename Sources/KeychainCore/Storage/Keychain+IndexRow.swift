/// Index rows: the keyed digest columns and the primary-key digest a write stores beside the sealed item, so
/// lookups and uniqueness are decided by SQLite without decrypting.
extension Keychain {
    /// The digest columns and primary-key digest of an item with `attributes` (which hold agrp and sync), and
    /// the binding of those columns that the item's secret seal authenticates.
    func indexRow(_ attributes: [AttributeKey: AttributeValue], schema: ClassSchema) throws
        -> (primaryKey: [UInt8], digests: [[UInt8]?], binding: [UInt8])
    {
        let layout = ItemTables.layout(schema)
        var digests = [[UInt8]?](repeating: nil, count: layout.spec.digestColumns.count)
        for indexed in layout.indexed {
            let key = indexed.key
            guard let value = attributes[key] ?? (schema.primaryKey.contains(key) ? schema.defaultValue(for: key) : nil)
            else { continue }
            digests[indexed.digest] = try digester.digest(key, value)
            if let position = indexed.folded, let folded = try digester.foldedDigest(key, value) {
                digests[position] = folded
            }
        }
        let group = attributes[.accessGroup] ?? .string("")
        let sync = attributes[.synchronizable] ?? .bool(false)
        digests[ItemTables.Layout.accessGroupPosition] = try digester.recurringDigest(.accessGroup, group)
        if case .bool(let flag) = sync {
            digests[ItemTables.Layout.synchronizablePosition] = digester.synchronizableDigest(flag)
        } else {
            digests[ItemTables.Layout.synchronizablePosition] = try digester.recurringDigest(.synchronizable, sync)
        }
        var parts = schema.primaryKey.map { ($0, attributes[$0] ?? schema.defaultValue(for: $0)) }
        parts.append((.accessGroup, group))
        parts.append((.synchronizable, sync))
        return (
            try digester.primaryKeyDigest(schema.itemClass, parts), digests,
            layout.spec.indexBinding(digests)
        )
    }
}
