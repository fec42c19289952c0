import KeychainCrypto
import KeychainStore

/// A passcode set, change or removal makes the keys of classes A and C anew (``ProtectionState/renewedClasses``)
/// and rewraps every item key under them in the same write section, so an older copy of the keybag opens none of
/// today's items. The old keys stay in the keybag as retired keys, wrapped by the new ones. A row is read under
/// its class's current key or, failing that, the key before it: a write sealed just before a renewal and
/// committed just after it is under that key (the next renewal, or the next unlock after an unfinished rewrap,
/// carries it forward).
extension Keychain {
    /// The retired keys a rewrap looks under: the key before the current one, and the one before that (rows of
    /// writes that raced the last renewal).
    private static let retiredKeysRewrapped = 2

    /// Unwraps a row's item key with its class key, or with the class's retired key before it.
    /// - Throws: `errSecDecode` when neither opens it (the row is damaged).
    func itemKey(
        wrapped: [UInt8], sealer: ItemSealer, protection: Accessibility, classKey: AESKeyWrapper
    ) throws -> SecureBytes {
        do {
            return try sealer.itemKey(wrapped: wrapped, classKey: classKey)
        } catch {
            guard ProtectionState.renewedClasses.contains(protection) else { throw error }
            for retired in try dataProtection.retiredClassKeys(protection, currentKey: classKey, limit: 1) {
                if let key = try? retired.unwrap(wrapped) { return key }
            }
            throw error
        }
    }

    /// ``itemKey(wrapped:sealer:protection:classKey:)`` with the class key of `protection` as it is now.
    /// - Throws: `errSecInteractionNotAllowed` when the class is not available.
    func itemKey(wrapped: [UInt8], sealer: ItemSealer, protection: Accessibility) throws -> SecureBytes {
        try itemKey(wrapped: wrapped, sealer: sealer, protection: protection, classKey: try classKey(protection))
    }

    /// Runs `change` (a passcode set, change or removal: it renews the class keys) and rewraps the item keys in
    /// the same write section, so no write of another caller commits between the two. A failed rewrap after the
    /// keybag changed does not undo the change: the rows it did not reach are still read with the retired keys,
    /// and the next unlock finishes it.
    func renewingClassKeys(_ change: () throws -> Void) throws {
        var changed = false
        var complete = false
        do {
            try writeSection { store in
                try change()
                changed = true
                complete = try rewrapItemKeys(store)
            }
        } catch {
            guard changed else { throw error }
            complete = false
        }
        if complete { try? dataProtection.finishItemKeyRewrap() }
    }

    /// Finishes a rewrap a renewal left unfinished (a crash, a failed write, a class locked at the time), when its
    /// classes are available now. Cheap when there is none: one look at the keybag.
    func finishPendingItemKeyRewrap() throws {
        guard try dataProtection.itemKeysAwaitRewrap else { return }
        let complete = try writeSection { store in try rewrapItemKeys(store) }
        if complete { try dataProtection.finishItemKeyRewrap() }
    }

    /// Rewraps under their class's current key the item keys still wrapped by a recent retired key. Rows whose
    /// key opens under none (damaged, or rolled back from further back) are left to the read to report.
    /// - Returns: false when a class holding rows was not available, so some may be left.
    private func rewrapItemKeys(_ store: ItemStore) throws -> Bool {
        var complete = true
        for protection in ProtectionState.renewedClasses {
            guard let current = try? classKey(protection) else {
                if try store.holdsRows(protection: protection.rawValue) { complete = false }
                continue
            }
            let retired = try dataProtection.retiredClassKeys(
                protection, currentKey: current, limit: Self.retiredKeysRewrapped)
            guard !retired.isEmpty else { continue }
            for schema in ClassSchema.stored {
                let table = schema.itemClass.rawValue
                let rows = try store.select(
                    from: table, where: RowFilter(protection: protection.rawValue), reading: [])
                for row in rows where (try? current.unwrap(row.wrappedKey)) == nil {
                    guard let itemKey = retired.lazy.compactMap({ try? $0.unwrap(row.wrappedKey) }).first else {
                        continue
                    }
                    try store.replaceWrappedKey(try current.wrap(itemKey), rowid: row.rowid, in: table)
                }
            }
        }
        return complete
    }
}
