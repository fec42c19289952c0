import KeychainCrypto
import KeychainStore

/// Items that only the device passcode opens. A devicePasscode factor's key is derived from the
/// WhenPasscodeSetThisDeviceOnly class key, which removing the passcode destroys; biometry, companion and
/// application-password factors have keys of their own. An item every alternative of whose key envelope holds
/// the passcode factor can never be opened again once that key is gone.
extension Keychain {
    /// The rowids of `schema`'s table whose items only the passcode's key opened. Rows whose class is unavailable
    /// or that do not decrypt are left alone (a damaged row is the read's to report). Read in batches of
    /// ``KeychainConfiguration/resealBatchRows`` rows, in the caller's transaction: only a batch is held in memory.
    func passcodeBoundRows(_ schema: ClassSchema, store: ItemStore) throws -> [Int64] {
        var found: [Int64] = []
        var batch = RowFilter(limit: max(1, configuration.resealBatchRows))
        batch.rowidAbove = 0
        while true {
            let rows = try store.select(from: schema.itemClass.rawValue, where: batch, reading: [.metadata, .secret])
            found += rows.compactMap { row in (try? isPasscodeBound(row, schema: schema)) == true ? row.rowid : nil }
            guard let last = rows.last, rows.count == batch.limit else { return found }
            batch.rowidAbove = last.rowid
        }
    }

    private func isPasscodeBound(_ row: StoredRow, schema: ClassSchema) throws -> Bool {
        guard let protection = Accessibility(rawValue: row.protection) else { return false }
        let sealer = sealer(for: row, schema: schema, protection: protection)
        let itemKey = try itemKey(wrapped: row.wrappedKey, sealer: sealer, protection: protection)
        let attributes = try sealer.openAttributes(row.metadata, itemKey: itemKey)
        guard let policy = try storedPolicy(attributes),
            policy.alternatives.contains(where: { $0.contains(.devicePasscode) })
        else { return false }
        // The envelope, not the policy, says which alternatives were made (one that could not be made when the
        // item was stored, say biometry with nothing enrolled, is not in it).
        let (envelope, _) = try ConstraintEnvelope.unframing(
            try constrainedEnvelopeColumn(row.secret, sealer: sealer, itemKey: itemKey))
        return Self.onlyThePasscodeOpens(envelope.alternatives.map(\.factors))
    }

    /// Whether every alternative needs the passcode's key.
    static func onlyThePasscodeOpens(_ alternatives: [[ConstraintFactor]]) -> Bool {
        !alternatives.isEmpty && alternatives.allSatisfy { $0.contains(.devicePasscode) }
    }
}
