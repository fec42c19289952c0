import KeychainCrypto
import KeychainStore

/// A passcode set, change or removal makes the keys of classes A and C anew (``ProtectionState/renewedClasses``)
/// and, in the same write section, reseals every item of those classes under a new item key wrapped by the new
/// class key: an older copy of the keybag, even with an older copy of the database, opens nothing of today's
/// items. The old class keys stay in the keybag as retired keys, wrapped by the new ones. A row that is not under
/// its class's current key (a write sealed before a change and committed after it, or a reseal cut short) still
/// opens under a retired key, and the next open or unlock reseals it.
extension Keychain {
    /// Unwraps a row's item key with its class key or, failing that, one of the class's retired keys.
    /// - Throws: `errSecDecode` when none opens it (the row is damaged).
    func itemKey(
        wrapped: [UInt8], sealer: ItemSealer, protection: Accessibility, classKey: AESKeyWrapper
    ) throws -> SecureBytes {
        do {
            return try sealer.itemKey(wrapped: wrapped, classKey: classKey)
        } catch {
            guard let key = try retiredItemKey(wrapped: wrapped, protection: protection, classKey: classKey) else {
                throw error
            }
            return key
        }
    }

    /// ``itemKey(wrapped:sealer:protection:classKey:)`` with the class key of `protection` as it is now.
    /// - Throws: `errSecInteractionNotAllowed` when the class is not available.
    func itemKey(wrapped: [UInt8], sealer: ItemSealer, protection: Accessibility) throws -> SecureBytes {
        try itemKey(wrapped: wrapped, sealer: sealer, protection: protection, classKey: try classKey(protection))
    }

    /// The item key a retired key of `protection` unwraps from `wrapped`, if one does.
    func retiredItemKey(wrapped: [UInt8], protection: Accessibility, classKey: AESKeyWrapper) throws -> SecureBytes? {
        guard ProtectionState.renewedClasses.contains(protection) else { return nil }
        for retired in try dataProtection.retiredClassKeys(protection, currentKey: classKey) {
            if let key = try? retired.unwrap(wrapped) { return key }
        }
        return nil
    }

    /// Runs `change` (a passcode set, change or removal: it renews the class keys) and reseals the items in the
    /// same write section, so no write of another caller commits between the two. A failed reseal after the
    /// keybag changed does not undo the change: the rows it did not reach still open under the retired keys, and
    /// the next open or unlock reseals them.
    func renewingClassKeys(_ change: () throws -> Void) throws {
        var changed = false
        var renewal: String?
        var complete = false
        do {
            try writeSection { store in
                // A group commit runs a section again when another write of its group failed the transaction: the
                // keybag change is not undone, so it is made once.
                if !changed {
                    try change()
                    changed = true
                    renewal = try dataProtection.unfinishedRenewal
                }
                complete = try resealItemsOfRetiredKeys(store)
            }
        } catch {
            guard changed else { throw error }
            complete = false
        }
        if complete, let renewal { try? dataProtection.finishRenewal(renewal) }
    }

    /// Reseals the items a renewal did not reach (a crash, a failed write, a class locked at the time), when
    /// their classes are available now. Cheap when there are none: one look at the keybag.
    func finishUnfinishedRenewal() throws {
        guard let renewal = try dataProtection.unfinishedRenewal else { return }
        if try writeSection({ store in try resealItemsOfRetiredKeys(store) }) {
            try dataProtection.finishRenewal(renewal)
        }
    }

    /// Gives every row of a renewed class whose item key is wrapped by a retired key a new item key, wrapped by
    /// the class's current key. Rows no key opens are left to the read to report as damaged.
    /// - Returns: false when a class holding rows was not available, so some may be left.
    private func resealItemsOfRetiredKeys(_ store: ItemStore) throws -> Bool {
        var complete = true
        for protection in ProtectionState.renewedClasses {
            guard let current = try? classKey(protection) else {
                if try store.holdsRows(protection: protection.rawValue) { complete = false }
                continue
            }
            let retired = try dataProtection.retiredClassKeys(protection, currentKey: current)
            guard !retired.isEmpty else { continue }
            for schema in ClassSchema.stored {
                let table = schema.itemClass.rawValue
                let rows = try store.select(
                    from: table, where: RowFilter(protection: protection.rawValue), reading: [.metadata, .secret])
                for row in rows where (try? current.unwrap(row.wrappedKey)) == nil {
                    guard let itemKey = retired.lazy.compactMap({ try? $0.unwrap(row.wrappedKey) }).first else {
                        continue
                    }
                    let newItemKey = try SystemRandom.key()
                    if row.version == ItemSealer.formatVersion {
                        guard
                            let rekeyed = try? rekeyed(
                                row, schema: schema, protection: protection, itemKey: itemKey, classKey: current,
                                newItemKey: newItemKey)
                        else { continue }
                        try store.replaceSeal(rekeyed, in: table)
                    } else {
                        guard
                            let resealed = try? resealed(
                                row, schema: schema, protection: protection, itemKey: itemKey, classKey: current,
                                newItemKey: newItemKey)
                        else { continue }
                        try store.replace(resealed, in: table)
                    }
                }
            }
        }
        return complete
    }

    /// A row of the current format under a new item key: each sealed part decrypted and encrypted again with the
    /// same additional data (the secret's binds the row's index, which does not change), nothing decoded but
    /// whether the secret is a constraint envelope (carried over unopened).
    /// - Throws: `errSecDecode` when the row does not decrypt.
    private func rekeyed(
        _ row: StoredRow, schema: ClassSchema, protection: Accessibility, itemKey: SecureBytes,
        classKey: AESKeyWrapper, newItemKey: SecureBytes
    ) throws -> StoredRow {
        let sealer = sealer(for: row, schema: schema, protection: protection)
        let secretPart: ItemSealer.Part =
            try sealer.hasConstraints(row.metadata, itemKey: itemKey) ? .constrainedEnvelope : .secret
        var rekeyed = row
        rekeyed.metadata = try sealer.resealed(row.metadata, part: .metadata, from: itemKey, to: newItemKey)
        rekeyed.secret = try sealer.resealed(row.secret, part: secretPart, from: itemKey, to: newItemKey)
        rekeyed.wrappedKey = try classKey.wrap(newItemKey)
        return rekeyed
    }
}
