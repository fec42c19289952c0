import KeychainCrypto
import KeychainStore

/// Rows written in an older item format are rewritten in the current one as soon as their class key is
/// available: at an open, and after an unlock. Format 1 → 2 seals a constrained secret's key envelope under the
/// item key; the envelope itself is carried over unopened, so no factor (biometry, application password) is
/// asked for. Until its class key is available a row stays as it was, and stays readable.
extension Keychain {
    /// Rewrites every row of an older format whose class key is available now, in batches of at most
    /// ``KeychainConfiguration/resealBatchRows`` rows, a transaction each: a home of many rows is not held in
    /// memory at once, and other writers commit between two batches. Each batch is read first, so rows with
    /// nothing to rewrite take no write lock; a row that does not decrypt is left for the read that reports it.
    func upgradeItemFormats() throws {
        for schema in ClassSchema.stored {
            let table = schema.itemClass.rawValue
            let size = max(1, configuration.resealBatchRows)
            var batch = RowFilter(limit: size)
            batch.versionBelow = ItemSealer.formatVersion
            batch.rowidAbove = 0
            while true {
                let waiting = try withStore { try $0.select(from: table, where: batch, reading: []) }
                guard let last = waiting.last else { break }
                if waiting.contains(where: { isAvailable($0.protection) }) {
                    let range = batch
                    try withStore { store in
                        try store.database.writeTransaction {
                            // Read again inside the transaction: another process may have rewritten some meanwhile.
                            for row in try store.select(from: table, where: range, reading: [.metadata, .secret])
                            where row.rowid <= last.rowid {
                                guard let upgraded = try upgraded(row, schema: schema) else { continue }
                                try store.replace(upgraded, in: table)
                            }
                        }
                    }
                }
                if waiting.count < size { break }
                batch.rowidAbove = last.rowid
            }
        }
    }

    /// Whether the class key of the protection class named `protection` is available now.
    private func isAvailable(_ protection: String) -> Bool {
        Accessibility(rawValue: protection).map { (try? classKey($0)) != nil } ?? false
    }

    /// `row` in the current format, or nil when its class key is unavailable or the row does not decrypt.
    private func upgraded(_ row: StoredRow, schema: ClassSchema) throws -> StoredRow? {
        guard let protection = Accessibility(rawValue: row.protection),
            let classKey = try? classKey(protection)
        else { return nil }
        let old = sealer(for: row, schema: schema, protection: protection)
        do {
            let opened = try openItemKey(
                wrapped: row.wrappedKey, sealer: old, protection: protection, classKey: classKey)
            // An item key a retired class key opened may be in an older copy of the home: the row gets a new one.
            return try resealed(
                row, schema: schema, protection: protection, itemKey: opened.key, classKey: classKey,
                newItemKey: opened.underRetiredKey ? try SystemRandom.key() : nil)
        } catch KeychainError.decode {
            return nil
        }
    }

    /// `row`, opened with its item key `itemKey`, sealed again in the current format under `classKey`: with
    /// `newItemKey` when given (a renewal of the class keys), else with its own.
    /// - Throws: `errSecDecode` when the row does not decrypt.
    func resealed(
        _ row: StoredRow, schema: ClassSchema, protection: Accessibility, itemKey: SecureBytes,
        classKey: AESKeyWrapper, newItemKey: SecureBytes? = nil
    ) throws -> StoredRow {
        let old = sealer(for: row, schema: schema, protection: protection)
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
        let sealingKey = newItemKey ?? itemKey
        let sealed = try new.seal(attributes: attributes, secret: secret, itemKey: sealingKey, classKey: classKey)
        var resealed = row
        resealed.version = ItemSealer.formatVersion
        resealed.primaryKeyDigest = index.primaryKey
        resealed.digests = index.digests
        resealed.indexBinding = index.binding
        resealed.wrappedKey = sealed.wrappedKey
        resealed.metadata = sealed.metadata
        if constrained {
            // The envelope's own seal is the item key's; what it holds opens only with the constraint keys and
            // is carried over unopened.
            if let newItemKey {
                var framed = try constrainedEnvelopeColumn(row.secret, sealer: old, itemKey: itemKey)
                defer { wipe(&framed) }
                resealed.secret = try new.sealEnvelope(framed, itemKey: newItemKey)
            } else {
                resealed.secret = try carriedOverEnvelope(row.secret, from: old, to: new, itemKey: itemKey)
            }
        } else {
            resealed.secret = sealed.secret
        }
        return resealed
    }
}
