import KeychainStore

/// Passcode, lock state and restart: the data protection commands (`security lock-keychain`,
/// `unlock-keychain`, `set-keychain-password`, `show-keychain-info`).
extension Keychain {
    /// The lock state, shared by every process that uses this keychain home.
    public var lockState: LockState {
        get throws { try dataProtection.lockState() }
    }

    /// Lock state, passcode settings and the wrong-attempt state of `attempter`'s count.
    public func info(attempter: PasscodeAttempter = .anyone) throws -> KeychainInfo {
        try dataProtection.info(attempter: attempter)
    }

    /// Sets a passcode, or changes it (`current` required). Classes A and C then need it after every restart;
    /// WhenPasscodeSetThisDeviceOnly becomes available. The keychain is unlocked afterwards.
    /// `current` counts with `attempter`'s attempts, as an unlock's passcode does.
    /// - Throws: `errSecAuthFailed` when `current` is missing or wrong; `errSecParam` for an empty passcode.
    public func setPasscode(_ new: Secret, current: Secret? = nil, attempter: PasscodeAttempter = .anyone) throws {
        let derived = try dataProtection.passcodeChangeKeys(
            new: new.storage, current: current?.storage, attempter: attempter)
        try renewingClassKeys {
            try dataProtection.setPasscode(
                new.storage, current: current?.storage, attempter: attempter, derived: derived)
        }
        try? upgradeItemFormats()  // the classes are unlocked now: rows of an older format can be rewritten
    }

    /// Removes the passcode. The class key of WhenPasscodeSetThisDeviceOnly is destroyed, and with it the key
    /// devicePasscode constraints are bound to: its items, and the items every alternative of whose access control
    /// needs the passcode, are deleted (Apple deletes the items whose key dies with the passcode). Items another
    /// alternative opens (biometry, a companion, an application password) stay. `current` counts with
    /// `attempter`'s attempts.
    /// - Returns: how many items were deleted.
    /// - Throws: `errSecAuthFailed` when `current` is wrong.
    @discardableResult
    public func removePasscode(current: Secret, attempter: PasscodeAttempter = .anyone) throws -> Int {
        let derived = try dataProtection.passcodeChangeKeys(new: nil, current: current.storage, attempter: attempter)
        return try renewingClassKeys {
            try dataProtection.setPasscode(nil, current: current.storage, attempter: attempter, derived: derived)
        } afterChange: {
            try purgeItemsOfDestroyedClasses()
        }
    }

    /// Unlocks with the passcode: classes A and C become available to every process. `attempter` says whose
    /// wrong attempts this one counts with (and is held back by); a right passcode clears every count.
    /// - Throws: `errSecAuthFailed` for a wrong passcode, or while `attempter`'s wrong attempts are rate-limited.
    public func unlock(passcode: Secret, attempter: PasscodeAttempter = .anyone) throws {
        try dataProtection.unlock(passcode: passcode.storage, attempter: attempter)
        try? finishUnfinishedRenewal()  // opportunistic, as the upgrade below: the next unlock tries again
        try? upgradeItemFormats()  // the classes are unlocked now: rows of an older format can be rewritten
    }

    /// Locks: class A becomes unavailable after the grace period, class C stays available until restart. Fails
    /// closed: class A's keys go (or get their expiry) before the lock is recorded. Locking again while locked
    /// takes the earlier of the first lock's deadline and the current grace period from now: never later.
    public func lock() throws {
        try dataProtection.lock()
    }

    /// Forgets every unlocked class key, as restarting the machine does: classes A and C wait for the passcode.
    /// The home's keyring is dropped, so it holds none of the user's kernel key quota any more.
    public func simulateRestart() {
        dataProtection.simulateRestart()
    }

    /// Sets how many seconds class A stays available after a lock (default 10).
    /// - Throws: `errSecParam` outside 0…86400 (one day).
    public func setGracePeriod(_ seconds: Int) throws {
        try dataProtection.setGracePeriod(seconds)
    }

    /// Deletes the items whose key no longer exists: WhenPasscodeSetThisDeviceOnly without a passcode and, after
    /// a removal the keybag records, the items only the removed passcode opened, all in one transaction. It runs
    /// at every open, so it looks with a read first: the write lock is taken only when there is a purge.
    /// - Returns: how many items were deleted.
    @discardableResult
    func purgeItemsOfDestroyedClasses() throws -> Int {
        guard try !dataProtection.hasPasscode else { return 0 }
        let destroyed = Accessibility.whenPasscodeSetThisDeviceOnly.rawValue
        let boundItems = try dataProtection.passcodeBoundItemsAwaitPurge
        let purged = try withStore { store -> Int in
            guard try boundItems || store.holdsRows(protection: destroyed) else { return 0 }
            return try store.database.writeTransaction {
                // Asked again under the write lock: another process may have set a passcode since, and the items
                // it then bound to its passcode must stay (a new item is written under this same lock).
                guard try !dataProtection.hasPasscode else { return 0 }
                var purged = 0
                for schema in ClassSchema.stored {
                    let table = schema.itemClass.rawValue
                    purged += try store.deleteAll(protection: destroyed, from: table)
                    guard boundItems else { continue }
                    purged += try store.delete(rowids: try passcodeBoundRows(schema, store: store), from: table)
                }
                return purged
            }
        }
        // After the commit: a crash before this repeats the purge, which finds nothing more.
        if boundItems { try dataProtection.finishPasscodeBoundPurge() }
        return purged
    }
}
