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
        try dataProtection.setPasscode(new.storage, current: current?.storage, attempter: attempter)
        try? upgradeItemFormats()  // the classes are unlocked now: rows of an older format can be rewritten
    }

    /// Removes the passcode. The class key of WhenPasscodeSetThisDeviceOnly is destroyed and its items are
    /// purged; nothing else is lost. `current` counts with `attempter`'s attempts.
    /// - Throws: `errSecAuthFailed` when `current` is wrong.
    public func removePasscode(current: Secret, attempter: PasscodeAttempter = .anyone) throws {
        try dataProtection.setPasscode(nil, current: current.storage, attempter: attempter)
        try purgeItemsOfDestroyedClasses()
    }

    /// Unlocks with the passcode: classes A and C become available to every process. `attempter` says whose
    /// wrong attempts this one counts with (and is held back by); a right passcode clears every count.
    /// - Throws: `errSecAuthFailed` for a wrong passcode, or while `attempter`'s wrong attempts are rate-limited.
    public func unlock(passcode: Secret, attempter: PasscodeAttempter = .anyone) throws {
        try dataProtection.unlock(passcode: passcode.storage, attempter: attempter)
        try? upgradeItemFormats()  // the classes are unlocked now: rows of an older format can be rewritten
    }

    /// Locks: class A becomes unavailable after the grace period, class C stays available until restart. Fails
    /// closed: class A's keys go (or get their expiry) before the lock is recorded. Locking again while locked
    /// keeps the first lock's deadline.
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

    /// Deletes the items whose class key no longer exists (WhenPasscodeSetThisDeviceOnly without a passcode).
    /// It runs at every open, so it looks with a read first: the write lock is taken only when there is a purge.
    func purgeItemsOfDestroyedClasses() throws {
        guard try !dataProtection.hasPasscode else { return }
        let destroyed = Accessibility.whenPasscodeSetThisDeviceOnly.rawValue
        try withStore { store in
            guard try store.holdsRows(protection: destroyed) else { return }
            try store.database.writeTransaction {
                for table in ClassSchema.stored.map(\.itemClass.rawValue) {
                    try store.deleteAll(protection: Accessibility.whenPasscodeSetThisDeviceOnly.rawValue, from: table)
                }
            }
        }
    }
}
