import KeychainCrypto
import KeychainStore

/// Rows written in an older item format are rewritten in the current one as soon as their class key is
/// available: at an open, and after an unlock. Format 1 → 2 seals a constrained secret's key envelope under the
/// item key; the envelope itself is carried over unopened, so no factor (biometry, application password) is
/// asked for. Until its class key is available a row stays as it was, and stays readable.
extension Keychain {
    /// Rewrites every row of an older format whose class key is available now. Reads first, so a home with
    /// nothing to rewrite takes no write lock; a row that does not decrypt is left for the read that reports it.
    func upgradeItemFormats() throws {
        var older = RowFilter()
        older.versionBelow = ItemSealer.formatVersion
        for schema in ClassSchema.stored {
            let table = schema.itemClass.rawValue
            let waiting = try withStore { try $0.select(from: table, where: older, reading: []) }
            guard
                waiting.contains(where: { row in
                    Accessibility(rawValue: row.protection).map { (try? classKey($0)) != nil } ?? false
                })
            else { continue }
            try withStore { store in
                try store.database.writeTransaction {
                    // Read again inside the transaction: another process may have rewritten them meanwhile.
                    for row in try store.select(from: table, where: older, reading: [.metadata, .secret]) {
                        guard let upgraded = try upgraded(row, schema: schema) else { continue }
                        try store.replace(upgraded, in: table)
                    }
                }
            }
        }
    }

    /// `row` in the current format, or nil when its class key is unavailable or the row does not decrypt.
    private func upgraded(_ row: StoredRow, schema: ClassSchema) throws -> StoredRow? {
        guard let protection = Accessibility(rawValue: row.protection),
            let classKey = try? classKey(protection)
        else { return nil }
        let old = sealer(for: row, schema: schema, protection: protection)
        do {
            let itemKey = try itemKey(wrapped: row.wrappedKey, sealer: old, protection: protection, classKey: classKey)
            let attributes = try old.openAttributes(row.metadata, itemKey: itemKey)
            // The digests are computed again from the authenticated attributes, so the new seal binds what the
            // row holds, whatever its old digest columns said.
            let index = try indexRow(attributes, schema: schema)
            let new = ItemSealer(
                table: schema.itemClass.rawValue, uuid: row.uuid, protection: protection,
                version: ItemSealer.formatVersion, indexBinding: index.binding)
            let constrained = attributes[AccessControlPolicy.attributeKey] != nil
            var secret = constrained ? [] : try old.openSecret(row.secret, itemKey: itemKey).bytes
            defer { wipe(&secret) }
            let sealed = try new.seal(attributes: attributes, secret: secret, itemKey: itemKey, classKey: classKey)
            var upgraded = row
            upgraded.version = ItemSealer.formatVersion
            upgraded.primaryKeyDigest = index.primaryKey
            upgraded.digests = index.digests
            upgraded.indexBinding = index.binding
            upgraded.wrappedKey = sealed.wrappedKey
            upgraded.metadata = sealed.metadata
            upgraded.secret =
                constrained
                ? try carriedOverEnvelope(row.secret, from: old, to: new, itemKey: itemKey) : sealed.secret
            return upgraded
        } catch KeychainError.decode {
            return nil
        }
    }
}
