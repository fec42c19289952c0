import Foundation
import KeychainCrypto
import KeychainStore

/// A passcode set, change or removal makes the keys of classes A and C anew (``ProtectionState/renewedClasses``)
/// and reseals every item of those classes under a new item key wrapped by the new class key, in batches (the first
/// in the change's own write section): an older copy of the keybag, even with an older copy of the database, opens
/// nothing of today's items. The old class keys stay in the keybag as retired keys, wrapped by the new ones. A row
/// that is not under its class's current key (a reseal cut short, or a row put back) still opens under a retired
/// key; the next open or unlock reseals it while the renewal is unfinished, else the next change. An add sealed
/// before a change and written after it is sealed again; an update of a row under a retired key rekeys it.
extension Keychain {
    /// Unwraps a row's item key with its class key or, failing that, one of the class's retired keys.
    /// - Throws: `errSecDecode` when none opens it (the row is damaged).
    func itemKey(
        wrapped: [UInt8], sealer: ItemSealer, protection: Accessibility, classKey: AESKeyWrapper
    ) throws -> SecureBytes {
        try openItemKey(wrapped: wrapped, sealer: sealer, protection: protection, classKey: classKey).key
    }

    /// ``itemKey(wrapped:sealer:protection:classKey:)`` with the class key of `protection` as it is now.
    /// - Throws: `errSecInteractionNotAllowed` when the class is not available.
    func itemKey(wrapped: [UInt8], sealer: ItemSealer, protection: Accessibility) throws -> SecureBytes {
        try itemKey(wrapped: wrapped, sealer: sealer, protection: protection, classKey: try classKey(protection))
    }

    /// The item key, and whether a retired class key opened it: such an item key may be in an older copy of the
    /// home, so a rewrite of the row gives it a new one (``rekeyed(_:schema:protection:itemKey:classKey:newItemKey:)``).
    func openItemKey(
        wrapped: [UInt8], sealer: ItemSealer, protection: Accessibility, classKey: AESKeyWrapper
    ) throws -> (key: SecureBytes, underRetiredKey: Bool) {
        do {
            return (try sealer.itemKey(wrapped: wrapped, classKey: classKey), false)
        } catch {
            guard let key = try retiredItemKey(wrapped: wrapped, protection: protection, classKey: classKey) else {
                throw error
            }
            return (key, true)
        }
    }

    /// The item key a retired key of `protection` unwraps from `wrapped`, if one does.
    func retiredItemKey(wrapped: [UInt8], protection: Accessibility, classKey: AESKeyWrapper) throws -> SecureBytes? {
        guard ProtectionState.renewedClasses.contains(protection) else { return nil }
        return Self.itemKey(wrapped, underAnyOf: try dataProtection.retiredClassKeys(protection, currentKey: classKey))
    }

    /// The item key the first of `keys` that opens `wrapped` unwraps, if one does.
    private static func itemKey(_ wrapped: [UInt8], underAnyOf keys: [AESKeyWrapper]) -> SecureBytes? {
        keys.lazy.compactMap { try? $0.unwrap(wrapped) }.first
    }

    /// Fails a write section with ``PasscodeChangedWhileSealing`` when the passcode changed (and with it the
    /// class keys, and `akpu`'s key the devicePasscode constraints are bound to) after `item` was sealed.
    func checkSealedUnderCurrentPasscode(_ item: PreparedItem) throws {
        guard try dataProtection.passcodeEpoch == item.passcodeEpoch else { throw PasscodeChangedWhileSealing() }
    }

    /// Seals with `seal` and writes with `write`, sealing again when a passcode change committed in between: an
    /// item written under the keys of before would open with an older copy of the keybag, or (`akpu`, a
    /// devicePasscode constraint) with nothing. A few attempts; a passcode that keeps changing fails the add.
    func sealingAgainAfterAPasscodeChange<R>(_ seal: () throws -> R, write: (R) throws -> Void) throws -> R {
        for _ in 0..<3 {
            let sealed = try seal()
            do {
                try write(sealed)
                return sealed
            } catch is PasscodeChangedWhileSealing {
                continue
            }
        }
        throw KeychainError.notAvailable.because(
            "the keychain's passcode kept changing while the item was being written; nothing was written")
    }

    /// Runs `change` (a passcode set, change or removal: it renews the class keys) and reseals the items, in write
    /// sections of at most ``KeychainConfiguration/resealBatchRows`` rows each, the first with the change itself:
    /// other writers commit between two (a reseal of 100,000 rows held every writer for about two seconds), and a
    /// batch's rows are all the reseal holds in memory. Rows not yet resealed open under the retired keys, as after
    /// a crash; a write in between is sealed under the new keys (an add sealed before the change is sealed again,
    /// an update of a row under a retired key rekeys it). A failed reseal after the keybag changed does not undo
    /// the change: the rows it did not reach still open under the retired keys, and the next open or unlock
    /// reseals them.
    /// - Parameter afterChange: runs once the change has committed, before the rest of the reseal lets other
    ///   writers in (a removal's purge: a passcode set in between would otherwise keep the items it must delete).
    /// - Returns: what `afterChange` returned.
    @discardableResult
    func renewingClassKeys(_ change: () throws -> Void, afterChange: () throws -> Int = { 0 }) throws -> Int {
        var changed = false
        var renewal: String?
        var walk = ResealWalk()
        do {
            walk = try writeSection { store in
                // A group commit runs a section again when another write of its group failed the transaction: the
                // keybag change is not undone, so it is made once.
                if !changed {
                    try change()
                    changed = true
                    renewal = try dataProtection.unfinishedRenewal
                }
                return try resealBatch(store, from: ResealWalk())
            }
        } catch {
            guard changed else { throw error }
            walk.abandon()
        }
        let afterwards = Result { try afterChange() }
        do {
            try resealRest(from: &walk)
        } catch {
            walk.abandon()
        }
        if walk.complete, let renewal { try? dataProtection.finishRenewal(renewal) }
        checkpointAfterReseal()
        return try afterwards.get()
    }

    /// Reseals the batches after `walk`'s, one write section each, until the walk has been over every class.
    private func resealRest(from walk: inout ResealWalk) throws {
        while !walk.isOver {
            // In embedded mode the next section takes the keychain's lock again at once, before a thread woken
            // by its release could run: a brief pause lets that thread in. The group committer queues instead.
            if committer == nil { usleep(200) }
            configuration.betweenResealBatches?()
            let from = walk
            walk = try writeSection { store in try resealBatch(store, from: from) }
        }
    }

    /// Takes the rows as they were before a reseal out of the write-ahead log, where an older copy of the home
    /// and its keys would find them. Best effort, and brief (it holds writers back while it waits): while a
    /// reader of another process stays on an older snapshot, the old pages stay in the log file until the log is
    /// next reset and written over.
    private func checkpointAfterReseal() {
        for attempt in 0..<4 {
            if (try? withStore({ try $0.database.checkpointTruncating(waitingAtMost: 50) })) == true { return }
            usleep(UInt32(20_000 << attempt))
        }
    }

    /// Reseals the items a renewal did not reach (a crash, a failed write, a class locked at the time), when
    /// their classes are available now. Cheap when there are none: one look at the keybag.
    func finishUnfinishedRenewal() throws {
        guard let renewal = try dataProtection.unfinishedRenewal else { return }
        var walk = ResealWalk()
        try resealRest(from: &walk)
        if walk.complete { try dataProtection.finishRenewal(renewal) }
        checkpointAfterReseal()
    }

    /// Where a reseal's walk over the renewed classes' tables has got to: the class and table it is in, and the
    /// last rowid it read there.
    struct ResealWalk: Sendable {
        var protectionIndex = 0
        var tableIndex = 0
        var afterRowid: Int64 = 0
        /// False once a class holding rows was not available, or a row could not be rewritten: some may be left.
        var complete = true

        var isOver: Bool { protectionIndex >= ProtectionState.renewedClasses.count }

        /// Ends the walk where it is: the rows it did not reach wait for the next open or unlock.
        mutating func abandon() {
            complete = false
            protectionIndex = ProtectionState.renewedClasses.count
        }

        mutating func nextTable() {
            afterRowid = 0
            tableIndex += 1
            if tableIndex >= ClassSchema.stored.count { nextClass() }
        }

        mutating func nextClass() {
            afterRowid = 0
            tableIndex = 0
            protectionIndex += 1
        }
    }

    /// Gives the next rows of a renewed class whose item key is wrapped by a retired key, at most
    /// ``KeychainConfiguration/resealBatchRows`` of them read, a new item key wrapped by the class's current key;
    /// returns where the walk goes on. Rows no key opens are left to the read to report as damaged.
    private func resealBatch(_ store: ItemStore, from start: ResealWalk) throws -> ResealWalk {
        var walk = start
        var budget = max(1, configuration.resealBatchRows)
        while budget > 0, !walk.isOver {
            let protection = ProtectionState.renewedClasses[walk.protectionIndex]
            guard let current = try? classKey(protection) else {
                // Without a passcode WhenPasscodeSetThisDeviceOnly's rows await the purge, not a reseal.
                let hasPasscode = try dataProtection.hasPasscode
                let doomed = protection == .whenPasscodeSetThisDeviceOnly && !hasPasscode
                if !doomed, try store.holdsRows(protection: protection.rawValue) { walk.complete = false }
                walk.nextClass()
                continue
            }
            // The retired keys are opened once per batch and class, not for each row as a read does.
            let retired = try dataProtection.retiredClassKeys(protection, currentKey: current)
            guard !retired.isEmpty else {
                walk.nextClass()
                continue
            }
            let schema = ClassSchema.stored[walk.tableIndex]
            let table = schema.itemClass.rawValue
            var filter = RowFilter(protection: protection.rawValue, limit: budget)
            filter.rowidAbove = walk.afterRowid
            let rows = try store.select(from: table, where: filter, reading: [.metadata, .secret])
            let tableDone = rows.count < budget
            budget -= rows.count
            if tableDone {
                walk.nextTable()
            } else if let last = rows.last {
                walk.afterRowid = last.rowid
            }
            for row in rows where (try? current.unwrap(row.wrappedKey)) == nil {
                guard let itemKey = Self.itemKey(row.wrappedKey, underAnyOf: retired) else { continue }
                if !(try reseal(
                    row, schema: schema, protection: protection, itemKey: itemKey, classKey: current, in: store))
                {
                    walk.complete = false
                }
            }
        }
        return walk
    }

    /// Writes `row` under a new item key wrapped by `classKey`; false when the row's recomputed index is taken by
    /// another row. A row that cannot be rewritten (damaged, or its index taken) stays under its retired key, where
    /// reads still open it.
    private func reseal(
        _ row: StoredRow, schema: ClassSchema, protection: Accessibility, itemKey: SecureBytes,
        classKey: AESKeyWrapper, in store: ItemStore
    ) throws -> Bool {
        let table = schema.itemClass.rawValue
        let newItemKey = try SystemRandom.key()
        do {
            if row.version == ItemSealer.formatVersion {
                try store.replaceSeal(
                    try rekeyed(
                        row, schema: schema, protection: protection, itemKey: itemKey, classKey: classKey,
                        newItemKey: newItemKey),
                    in: table)
            } else {
                try store.replace(
                    try resealed(
                        row, schema: schema, protection: protection, itemKey: itemKey, classKey: classKey,
                        newItemKey: newItemKey),
                    in: table)
            }
        } catch let error as KeychainError where error.status == SecurityStatus.decode {
            return true
        } catch let error as StoreError where error.isUniqueViolation {
            return false
        }
        return true
    }

    /// A row of the current format under a new item key: each sealed part decrypted and encrypted again with the
    /// same additional data (the secret's binds the row's index, which does not change), nothing decoded but
    /// whether the secret is a constraint envelope (carried over unopened).
    /// - Throws: `errSecDecode` when the row does not decrypt.
    func rekeyed(
        _ row: StoredRow, schema: ClassSchema, protection: Accessibility, itemKey: SecureBytes,
        classKey: AESKeyWrapper, newItemKey: SecureBytes
    ) throws -> StoredRow {
        let sealer = sealer(for: row, schema: schema, protection: protection)
        let (metadata, constrained) = try sealer.resealedAttributes(row.metadata, from: itemKey, to: newItemKey)
        var rekeyed = row
        rekeyed.metadata = metadata
        rekeyed.secret = try sealer.resealed(
            row.secret, part: constrained ? .constrainedEnvelope : .secret, from: itemKey, to: newItemKey)
        rekeyed.wrappedKey = try classKey.wrap(newItemKey)
        return rekeyed
    }
}

/// A write section found the passcode changed since its items were sealed
/// (``Keychain/sealingAgainAfterAPasscodeChange(_:write:)``).
struct PasscodeChangedWhileSealing: Error {}
