import Foundation
import KeychainCrypto
import KeychainStore

/// What a backup or a restore did.
public struct BackupSummary: Sendable, Equatable {
    /// Items written to the backup, or restored from it.
    public let itemCount: Int
    /// Items that stay on the device: left out of the backup (ThisDeviceOnly classes, WhenPasscodeSetThisDeviceOnly,
    /// access-control constraints); for a restore, the number the backup recorded when it was made.
    public let excludedCount: Int
    /// Items left out of a backup because they are damaged (they do not decrypt); 0 for a restore.
    public let damagedCount: Int

    /// Makes a summary.
    public init(itemCount: Int, excludedCount: Int, damagedCount: Int = 0) {
        self.itemCount = itemCount
        self.excludedCount = excludedCount
        self.damagedCount = damagedCount
    }
}

/// Encrypted backups of the whole keychain, as an iTunes/Finder backup of a device: every access group, the
/// migratable classes only (docs/storage.md, "Backups").
extension Keychain {
    /// The attribute an item's access control will be stored under (`kSecAttrAccessControl`). An item that
    /// carries one never leaves the device, as on Apple's keychain; none can be stored yet.
    private static let accessControlAttribute = AttributeKey("accc")

    /// Writes an encrypted backup of this keychain's migratable items, in every access group, to a new file.
    /// - Parameters:
    ///   - url: where to write; the file must not exist (a backup never replaces a file).
    ///   - password: the backup password, stretched with PBKDF2-HMAC-SHA-256.
    /// - Returns: how many items went in, and how many stayed on the device.
    /// - Throws: `errSecParam` for an existing file or an empty password; `errSecInteractionNotAllowed` when a
    ///   migratable item's class is unavailable in the current lock state (nothing is left out silently);
    ///   `errSecIO` when the file cannot be written.
    public func backup(to url: URL, password: Secret) throws -> BackupSummary {
        try checkBackupPassword(password)
        try Self.checkBackupDestination(url)
        let made = try backupArchive(password: password)
        try Self.writeBackupFile(made.archive, to: url)
        return made.summary
    }

    /// An encrypted backup of this keychain's migratable items, in every access group, as the bytes of a backup
    /// file: what ``backup(to:password:)`` writes, for a caller that writes the file itself (keychaind's client,
    /// with its own rights).
    /// - Throws: as ``backup(to:password:)``, but for the file.
    public func backupArchive(password: Secret) throws -> (archive: [UInt8], summary: BackupSummary) {
        try checkBackupPassword(password)
        let contents = try readMigratableItems()
        let file: [UInt8]
        do {
            // Tuned like the passcode, but never below the backup floor: the passcode's cost is set for guesses
            // on this machine, a backup's must hold off guesses anywhere.
            let tuned = try PasscodeKDF.tune(target: configuration.passcodeDerivationTarget).iterations
            let iterations = min(max(tuned, BackupArchive.minimumIterations), BackupArchive.maximumIterations)
            file = try BackupArchive.seal(contents, password: password.storage, iterations: iterations)
        } catch let error as CryptoError {
            throw KeychainError(SecurityStatus.internalComponent, reason: "\(error)")
        }
        let summary = BackupSummary(
            itemCount: contents.entries.count, excludedCount: contents.excludedCount,
            damagedCount: contents.damagedCount)
        return (file, summary)
    }

    /// Restores the backup at `url` into this keychain, all items or none, each in the access group it was
    /// backed up from, with its persistent reference, dates and attributes, re-encrypted under this keychain's
    /// class keys.
    /// - Parameters:
    ///   - url: a file written by ``backup(to:password:)``.
    ///   - password: the backup password.
    /// - Returns: how many items were restored, and how many the backup had left on the original device.
    /// - Throws: `errSecAuthFailed` for a wrong password; `errSecDecode` for a damaged, truncated or foreign
    ///   file; `errSecDuplicateItem` when an item's primary key or persistent reference is taken;
    ///   `errSecInteractionNotAllowed` when a class is unavailable here; `errSecParam` for a missing file.
    ///   Whatever the failure, nothing is written.
    public func restore(from url: URL, password: Secret) throws -> BackupSummary {
        try checkBackupPassword(password)
        return try restore(archive: try Self.readBackupFile(url), password: password)
    }

    /// Restores a backup from the bytes of its file (``backupArchive(password:)``), as ``restore(from:password:)``.
    public func restore(archive file: [UInt8], password: Secret) throws -> BackupSummary {
        try checkBackupPassword(password)
        let payload: SecureBytes
        do {
            payload = try BackupArchive.openPayload(file, password: password.storage)
        } catch let error as CryptoError {
            throw KeychainError(SecurityStatus.internalComponent, reason: "\(error)")
        }
        // Each entry is checked and sealed as it is decoded, so a bad one fails before the rest is read; all of
        // them before the one write transaction, so a failure writes nothing.
        var excludedCount = 0
        let items = try sealingAgainAfterAPasscodeChange {
            var references = RestoredReferences()
            var items: [PreparedItem] = []
            excludedCount = try payload.withUnsafeBytes { bytes in
                try BackupArchive.decodePayload(bytes) { entry in
                    try references.refuseRepeated(entry)
                    items.append(try prepareRestored(entry))
                }
            }
            return items
        } write: {
            try insertRestored($0)
        }
        return BackupSummary(itemCount: items.count, excludedCount: excludedCount)
    }

    /// Refuses a backup destination that exists already (a backup never replaces a file), before any work.
    package static func checkBackupDestination(_ url: URL) throws {
        guard !FileManager.default.fileExists(atPath: url.path) else { throw Self.existingFile(url) }
    }

    /// Writes a backup file: a temporary file, fsync, then a hard link into place, atomic like a rename but never
    /// over a file that appeared meanwhile. The file is 0600.
    package static func writeBackupFile(_ archive: [UInt8], to url: URL) throws {
        guard try SecretFile.createExclusively(url, bytes: archive) else { throw Self.existingFile(url) }
    }

    /// The largest backup file read (64 MiB): far above any real keychain's backup (10,000 items of a kilobyte
    /// make 10 MiB). A restore holds the file, its decrypted payload and every valid item sealed again until the
    /// one write, so this bounds its memory (docs/data-protection.md, "Backups", has the figures).
    package static let largestBackupFile = 64 << 20

    /// The bytes of the backup file at `url`, a regular file (a symbolic link to one is followed) of at most
    /// ``largestBackupFile`` bytes.
    /// - Throws: `errSecParam` when there is no file there, for anything but a regular file (a FIFO, a device,
    ///   a directory) and for a larger file, none of it read; `errSecIO` when it cannot be read.
    package static func readBackupFile(_ url: URL) throws -> [UInt8] {
        guard let file = try SecretFile.readRegularFile(url, largest: largestBackupFile) else {
            throw KeychainError.param.because("there is no backup file at \(url.path)")
        }
        return file
    }

    /// Whether an item may leave the device: only items of a class that backs up, in the migratable protection
    /// classes, without access-control constraints (Apple: ThisDeviceOnly items "will not be included in a
    /// backup" and never migrate to a new device), and not of a token (`tkid`: a Secure Enclave key's value is
    /// bound to this machine's enclave; Apple's backup skips every item with a token ID, SecItemDb.c).
    private static func leavesDevice(
        _ schema: ClassSchema, _ protection: Accessibility, _ attributes: [AttributeKey: AttributeValue]?
    ) -> Bool {
        schema.backsUp && !protection.isThisDeviceOnly && attributes?[accessControlAttribute] == nil
            && attributes?[.tokenID] == nil
    }

    private func checkBackupPassword(_ password: Secret) throws {
        guard password.count > 0 else { throw KeychainError.param.because("a backup password cannot be empty") }
    }

    private static func existingFile(_ url: URL) -> KeychainError {
        KeychainError.param.because("\(url.path) already exists; a backup never replaces a file")
    }

    /// Every migratable item of every table and group, decrypted, from one snapshot of the database.
    private func readMigratableItems() throws -> BackupContents {
        try withStore { store in
            try store.database.readTransaction {
                var contents = BackupContents()
                for schema in ClassSchema.stored {
                    let rows = try store.select(
                        from: schema.itemClass.rawValue, where: RowFilter(), reading: [.metadata, .secret])
                    for row in rows {
                        guard let protection = Accessibility(rawValue: row.protection) else {
                            // Damaged (or changed on disk): counted in the summary, as rows that do not decrypt.
                            contents.damagedCount += 1
                            continue
                        }
                        // A ThisDeviceOnly item is counted and skipped without its class key: never decrypted.
                        guard Self.leavesDevice(schema, protection, nil) else {
                            contents.excludedCount += 1
                            continue
                        }
                        do {
                            if let entry = try backupEntry(row, schema: schema, protection: protection) {
                                contents.entries.append(entry)
                            } else {
                                contents.excludedCount += 1
                            }
                        } catch let error as KeychainError where error.status == SecurityStatus.decode {
                            // Damaged: nothing of it can be read, so nothing of it can be saved; said in the summary.
                            contents.damagedCount += 1
                        }
                    }
                }
                return contents
            }
        }
    }

    /// One row decrypted for the backup, or nil when it must stay on the device.
    private func backupEntry(_ row: StoredRow, schema: ClassSchema, protection: Accessibility) throws -> BackupEntry? {
        let key: AESKeyWrapper
        do {
            key = try classKey(protection)
        } catch let error as KeychainError where error.status == SecurityStatus.interactionNotAllowed {
            let why = error.explanation ?? Reason("class \(protection.rawValue) is not available")
            throw error.because(
                "a backup must hold every item that can leave the device, and \(why); nothing was written")
        }
        let sealer = sealer(for: row, schema: schema, protection: protection)
        let itemKey = try itemKey(wrapped: row.wrappedKey, sealer: sealer, protection: protection, classKey: key)
        let attributes = try sealer.openAttributes(row.metadata, itemKey: itemKey)
        guard Self.leavesDevice(schema, protection, attributes) else { return nil }
        return BackupEntry(
            itemClass: schema.itemClass, uuid: row.uuid, protection: protection, attributes: attributes,
            secret: try sealer.openSecret(row.secret, itemKey: itemKey))
    }

    /// Checks one item from a backup (its class, protection, group and attributes, as an add checks them; a key's or
    /// certificate's value is not parsed, docs/storage.md) and seals it under this keychain's keys.
    private func prepareRestored(_ entry: BackupEntry) throws -> PreparedItem {
        guard let schema = ClassSchema.of(entry.itemClass) else {
            throw KeychainError.decode.because("the backup holds an item of class \(entry.itemClass.rawValue)")
        }
        try Self.refuseStayingOnDevice(entry, schema: schema)
        var plain = entry.attributes
        // The protection class is recorded beside the attributes, never among them.
        guard plain[.accessible] == nil else {
            throw KeychainError.decode.because(
                "the backup holds an item with a pdmn attribute, but an item's protection class is recorded apart "
                    + "(here \(entry.protection.rawValue)); it is damaged, and nothing was restored")
        }
        guard case .string(let group) = plain.removeValue(forKey: .accessGroup),
            case .bool = plain.removeValue(forKey: .synchronizable),
            case .date = plain[.creationDate], case .date = plain[.modificationDate],
            entry.secret.count <= Self.maximumDataSize
        else { throw KeychainError.decode.because("the backup holds an item without its group, sync flag or dates") }
        // The owner's write checks: a forged group no app holds ("", the token group) would be a hidden item.
        do {
            try Self.checkOwnersWriteGroup(group)
        } catch let error as KeychainError {
            throw KeychainError.decode.because(
                "the backup holds an item that cannot be restored: "
                    + "\(error.explanation ?? Reason(statusMessage: error.status)); nothing was restored")
        }
        do {
            try validate(plain, in: schema)
        } catch let error as KeychainError {
            throw KeychainError.decode.because(
                "the backup holds an invalid item: \(error.explanation ?? Reason(statusMessage: error.status))")
        }
        var secret = entry.secret.bytes
        defer { wipe(&secret) }
        do {
            return try prepare(
                entry.attributes, secret: secret, schema: schema, protection: entry.protection,
                uuid: entry.uuid)
        } catch let error as KeychainError where error.status == SecurityStatus.interactionNotAllowed {
            // The class key's own reason speaks to an app reading an item; here nothing exists yet to keep.
            throw KeychainError.interactionNotAllowed.because(
                "the backup holds items of class \(entry.protection.rawValue), which this keychain cannot write in "
                    + "its current lock state: unlock it and restore again; nothing was restored")
        }
    }

    /// Refuses an item a backup never holds, saying which rule keeps it on its device (``leavesDevice``).
    private static func refuseStayingOnDevice(_ entry: BackupEntry, schema: ClassSchema) throws {
        guard schema.backsUp else {
            throw KeychainError.decode.because(
                "the backup holds an item of class \(entry.itemClass.rawValue), which is never backed up; it is "
                    + "damaged, and nothing was restored")
        }
        guard !entry.protection.isThisDeviceOnly else {
            throw KeychainError.decode.because(
                "the backup holds an item of protection class \(entry.protection.rawValue), which never leaves its "
                    + "device; it is damaged, and nothing was restored")
        }
        guard entry.attributes[accessControlAttribute] == nil else {
            throw KeychainError.decode.because(
                "the backup holds an item with access control (accc), which never leaves its device; it is "
                    + "damaged, and nothing was restored")
        }
        guard entry.attributes[.tokenID] == nil else {
            throw KeychainError.decode.because(
                "the backup holds an item of a token (tkid), whose key only that token can use; it is damaged, and "
                    + "nothing was restored")
        }
    }

    /// Inserts the restored items in one write transaction: all of them or, on any collision, none.
    private func insertRestored(_ items: [PreparedItem]) throws {
        try withStore { store in
            try store.database.writeTransaction {
                // The primary keys this restore inserted: a collision with one of them is the backup's own.
                var inserted: Set<[UInt8]> = []
                for item in items {
                    let table = item.schema.itemClass.rawValue
                    let key = Array(table.utf8) + item.row.primaryKeyDigest
                    do {
                        try checkSealedUnderCurrentPasscode(item)
                        try store.insert(item.row, into: table)
                        inserted.insert(key)
                    } catch let error as StoreError where error.isUniqueViolation {
                        if inserted.contains(key) {
                            throw KeychainError.duplicateItem.because(
                                "the backup itself holds two items with the same primary key "
                                    + "(\(describePrimaryKey(item.attributes, schema: item.schema))); "
                                    + "nothing was restored")
                        }
                        let sameUUID = try store.select(
                            from: table, where: RowFilter(uuid: item.row.uuid, limit: 1), reading: [])
                        throw KeychainError.duplicateItem.because(
                            sameUUID.isEmpty
                                ? Reason(
                                    "an item with the same primary key exists "
                                        + "(\(describePrimaryKey(item.attributes, schema: item.schema))); nothing was restored"
                                )
                                : Reason(
                                    "an item with the same persistent reference exists (was this backup restored "
                                        + "before?); nothing was restored"))
                    }
                }
            }
        }
    }
}
