import Foundation
import KernelKeyring
import KeychainCrypto
import Synchronization

/// The keychain's data protection: the device key, the keybag, the passcode and the lock state. It answers one
/// question for every operation, "may this class key be used now, and what is it", and carries out the
/// passcode and lock commands. Thread-safe; the keybag file is re-read whenever another process has changed it.
final class ProtectionState: Sendable {
    let home: URL
    let deviceKey: SecureBytes
    /// The key under which attribute values are digested for lookups.
    let indexKey: SecureBytes
    let store: any UnlockedKeyStore
    let kdfTarget: Double
    let clock: @Sendable () -> Date
    /// The keybag as last read or saved; nil when a save could not make one, so that the next use reads the file.
    private let snapshot: Mutex<Snapshot?>
    private let keybagURL: URL
    /// The keybag file, checked before each use (unless ``keybagChangesOnlyHere``): another process may have
    /// replaced it.
    private let keybagWatch: WatchedFile
    private let lockURL: URL
    /// No other process writes the keybag (keychaind's own state directory): every change goes through
    /// ``save(_:)``, which updates the snapshot, so the file need not be examined before each use.
    private let keybagChangesOnlyHere: Bool

    /// One reading of the keybag file; immutable, so handing it out is a reference count.
    final class Snapshot: Sendable {
        let document: KeybagDocument
        let identity: SecretFile.FileIdentity?
        /// Class keys that need no passcode, unwrapped once; searched in order: a handful of entries compared by
        /// case cost less than hashing a class name.
        private let alwaysAvailable: [(Accessibility, AESKeyWrapper)]
        /// Each class's key check value (decoded once, for ``ProtectionState/isCurrent(_:_:in:)``).
        private let keyChecks: [(Accessibility, [UInt8])]

        init(
            document: KeybagDocument, identity: SecretFile.FileIdentity?,
            alwaysAvailable: [Accessibility: AESKeyWrapper]
        ) {
            self.document = document
            self.identity = identity
            self.alwaysAvailable = alwaysAvailable.map { ($0.key, $0.value) }
            keyChecks = Accessibility.allCases.compactMap { protection in
                guard let check = document.keyChecks?[protection.rawValue], let bytes = Data(base64Encoded: check)
                else { return nil }
                return (protection, Array(bytes))
            }
        }

        func keyCheck(_ protection: Accessibility) -> [UInt8]? {
            for (candidate, check) in keyChecks where candidate == protection { return check }
            return nil
        }

        func alwaysAvailableKey(_ protection: Accessibility) -> AESKeyWrapper? {
            for (candidate, key) in alwaysAvailable where candidate == protection { return key }
            return nil
        }
    }

    /// - Parameter mayCreateKeybag: asked only when the keybag file is missing: whether a fresh one may be made
    ///   (not when the database holds items, which only the lost class keys open).
    /// - Parameter keybagChangesOnlyHere: this process is the keybag's only writer.
    init(
        home: URL, kdfTarget: Double, clock: @escaping @Sendable () -> Date, keysInProcessMemory: Bool = false,
        keybagChangesOnlyHere: Bool = false, mayCreateKeybag: () throws -> Bool
    ) throws {
        try SecretFile.createDirectory(home)
        self.home = home
        keybagURL = home.appendingPathComponent(KeybagDocument.fileName)
        keybagWatch = WatchedFile(path: keybagURL.path)
        // Checked before the device key is loaded or made, so a refused open leaves the home as it was.
        if SecretFile.identity(keybagURL) == nil, try !mayCreateKeybag() {
            throw KeychainError.notAvailable.because(
                "the keybag file is missing from \(home.path), but keychain.db holds items that only its class keys "
                    + "open; a new keybag would make every one of them unreadable, so none is made: restore the "
                    + "keybag (with device.key) from a copy of this keychain home, or move keychain.db away to "
                    + "start an empty keychain")
        }
        lockURL = home.appendingPathComponent("keybag.lock")
        self.keybagChangesOnlyHere = keybagChangesOnlyHere
        self.kdfTarget = kdfTarget
        self.clock = clock
        deviceKey = try DeviceKey.loadOrCreate(home: home)
        indexKey = try KeyDerivation.hkdfSHA256(
            key: deviceKey, salt: Array(KeyHierarchy.derivationSalt.utf8),
            info: Array(KeyHierarchy.attributeIndexKey.utf8))
        if KernelKeyring.isAvailable && !keysInProcessMemory {
            // Every open gives back the keys of homes deleted since: nothing else would before a restart.
            KeyringKeyStore.dropKeyringsOfDeletedHomes()
            store = KeyringKeyStore(namespace: try KeyringKeyStore.namespace(deviceKey: deviceKey), home: home)
        } else {
            store = ProcessKeyStore()
        }
        let url = home.appendingPathComponent(KeybagDocument.fileName)
        if let existing = try Self.loadIfPresent(url, deviceKey: deviceKey) {
            snapshot = Mutex(existing)
        } else {
            try SecretFile.createExclusively(url, bytes: try Self.freshDocument(deviceKey: deviceKey).encoded())
            snapshot = Mutex(try Self.load(url, deviceKey: deviceKey))
        }
        try dropKeysOfARemovedPasscode()
    }

    /// A passcode removal cut short after the keybag was saved leaves the home's unlocked class keys (the
    /// destroyed WhenPasscodeSetThisDeviceOnly key among them) in the store, recorded as unlocked: nothing may
    /// hold them for a home without a passcode. Checked again under the keybag's lock, so a passcode another
    /// process is setting now (its keys follow its keybag) is not taken for one.
    private func dropKeysOfARemovedPasscode() throws {
        guard try !hasPasscode, store.holdsAnything else { return }
        try SecretFile.withExclusiveLock(lockURL) {
            guard try Self.load(keybagURL, deviceKey: deviceKey).document.passcode == nil else { return }
            store.clear()
        }
    }

    // MARK: - Reading the keybag

    private static func freshDocument(deviceKey: SecureBytes) throws -> KeybagDocument {
        var document = KeybagDocument(classes: [:])
        for protection in Accessibility.allCases where protection != .whenPasscodeSetThisDeviceOnly {
            document.setWrapped(protection, try AESKeyWrap.wrap(try SystemRandom.key(), kek: deviceKey))
        }
        return document
    }

    private static func load(_ url: URL, deviceKey: SecureBytes) throws -> Snapshot {
        guard let snapshot = try loadIfPresent(url, deviceKey: deviceKey) else {
            throw KeychainError.notAvailable.because("the keybag file is missing")
        }
        return snapshot
    }

    private static func loadIfPresent(_ url: URL, deviceKey: SecureBytes) throws -> Snapshot? {
        let identity = SecretFile.fileIdentity(path: url.path)
        guard let bytes = try SecretFile.read(url) else { return nil }
        return try snapshot(of: try KeybagDocument.decode(bytes), identity: identity, deviceKey: deviceKey)
    }

    private static func snapshot(
        of document: KeybagDocument, identity: SecretFile.FileIdentity?, deviceKey: SecureBytes
    ) throws -> Snapshot {
        var available: [Accessibility: AESKeyWrapper] = [:]
        for protection in Accessibility.allCases
        where document.passcode == nil
            ? protection != .whenPasscodeSetThisDeviceOnly
            : !KeybagDocument.isPasscodeProtected(protection)
        {
            guard let wrapped = document.wrapped(protection) else {
                throw KeychainError.notAvailable.because("the keybag has no key for class \(protection.rawValue)")
            }
            do {
                available[protection] = try AESKeyWrapper(
                    kek: AESKeyWrap.unwrap(wrapped, kek: deviceKey), keptInProcess: true)
            } catch {
                throw KeychainError.notAvailable.because("the keybag does not belong to this device key")
            }
        }
        return Snapshot(document: document, identity: identity, alwaysAvailable: available)
    }

    /// The current snapshot, re-read if another process replaced the keybag file (or one saved here could not
    /// be made).
    func current() throws -> Snapshot {
        let known = snapshot.withLock { $0 }
        if let known, keybagChangesOnlyHere || known.identity == keybagWatch.identity() { return known }
        let fresh = try Self.load(keybagURL, deviceKey: deviceKey)
        snapshot.withLock { $0 = fresh }
        // The classes kept in memory may have changed (a passcode set): item key schedules left behind go.
        AESGCM.forgetKeySchedules()
        return fresh
    }

    var hasPasscode: Bool {
        get throws { try current().document.passcode != nil }
    }

    /// Whether a passcode was removed and the items its key alone opened may still be in the database.
    var passcodeBoundItemsAwaitPurge: Bool {
        get throws { try current().document.passcodeBoundItemsToPurge == true }
    }

    /// Records that the items bound to a removed passcode are gone.
    func finishPasscodeBoundPurge() throws {
        try modify { document in document.passcodeBoundItemsToPurge = nil }
    }

    /// Which class keys are current: the wrapped key of WhenUnlocked, which every passcode set, change and removal
    /// makes anew (``renew(_:in:)``) and nothing else rewrites. The passcode's salt would not do: a set and then a
    /// removal leave no passcode, as before them, and keys of before them.
    var passcodeEpoch: String? {
        get throws { try current().document.wrapped(.whenUnlocked).map { Data($0).base64EncodedString() } }
    }

    /// The PBKDF2 rounds of the passcode's derivation, when a passcode is set.
    var passcodeIterations: Int? {
        get throws { try current().document.passcode?.iterations }
    }

    // MARK: - Class keys

    /// The key of `protection` if the class is available now.
    /// - Throws: `errSecInteractionNotAllowed` with the lock state when it is not.
    func classKey(_ protection: Accessibility) throws -> AESKeyWrapper {
        let state = try current()
        if let key = state.alwaysAvailableKey(protection) { return key }
        if state.document.passcode == nil {
            throw KeychainError.interactionNotAllowed.because(
                "class \(protection.rawValue) exists only while a passcode is set, and none is set")
        }
        guard let key = try store.get(protection) else {
            let lockState = try lockState()
            throw KeychainError.interactionNotAllowed.because(
                "the keychain is \(Keychain.lockStateName(lockState)); items of class \(protection.rawValue) "
                    + "(\(Self.availability(protection))) cannot be used until it is unlocked; "
                    + "\(Keychain.lockedClassFix(protection))")
        }
        return try currentStoredKey(key, protection, in: state).wrapper
    }

    /// `key`, the stored key of `protection`, once it is known to be the keybag's current one, with the keybag it
    /// is current in (`state`, or a later one). A change of passcode in another process may be between saving the
    /// keybag and storing its keys: once it lets go of the keybag's lock, both agree.
    /// - Throws: `errSecInteractionNotAllowed` for a key from before the latest change (kept in this process's
    ///   memory while another changed the passcode, or left in the keyring by a change cut short): it must seal
    ///   nothing, since it opens none of the renewed items.
    private func currentStoredKey(_ key: SecureBytes, _ protection: Accessibility, in state: Snapshot) throws
        -> (key: SecureBytes, wrapper: AESKeyWrapper, keybag: Snapshot)
    {
        let wrapper = try AESKeyWrapper(kek: key)
        if try Self.isCurrent(wrapper, protection, in: state) { return (key, wrapper, state) }
        try SecretFile.withExclusiveLock(lockURL) {}
        let settled = try current()
        if let key = try store.get(protection) {
            let wrapper = try AESKeyWrapper(kek: key)
            if try Self.isCurrent(wrapper, protection, in: settled) { return (key, wrapper, settled) }
        }
        throw KeychainError.interactionNotAllowed.because(
            "the keychain's passcode was changed since it was unlocked here, and its class keys with it; "
                + "unlock it again with the new passcode")
    }

    /// Whether a stored key of `protection` is the keybag's current one: its check value is the keybag's. A
    /// keybag of an earlier version has none until its first unlock here, and takes any key, as that version did
    /// (one with a passcode and retired keys always has them: only this version writes both).
    private static func isCurrent(_ key: AESKeyWrapper, _ protection: Accessibility, in snapshot: Snapshot) throws
        -> Bool
    {
        guard let check = snapshot.keyCheck(protection) else { return true }
        return try checkValue(of: key) == check
    }

    private static let checkPlaintext = SecureBytes(Array(KeyHierarchy.classKeyCheck.utf8))

    /// The keybag's `keyChecks` for `keys`.
    static func checkValues(of keys: [Accessibility: SecureBytes]) throws -> [String: String] {
        var checks: [String: String] = [:]
        for (protection, key) in keys {
            checks[protection.rawValue] = Data(try checkValue(of: try AESKeyWrapper(kek: key))).base64EncodedString()
        }
        return checks
    }

    /// The check value the keybag keeps of a class key: a fixed text wrapped by it (RFC 3394 is deterministic), the
    /// classic key check value. Not secret, and cheap with the key's schedule at hand: every use of a class key
    /// compares it.
    static func checkValue(of key: AESKeyWrapper) throws -> [UInt8] {
        try key.wrap(checkPlaintext)
    }

    private static func availability(_ protection: Accessibility) -> KeychainError.Reason {
        switch protection {
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly:
            KeychainError.Reason("available after the first unlock until restart")
        case .always, .alwaysThisDeviceOnly: KeychainError.Reason("always available")
        default: KeychainError.Reason("available only while unlocked")
        }
    }

    func lockState() throws -> LockState {
        guard try current().document.passcode != nil else { return .noPasscode }
        guard try store.get(.afterFirstUnlock) != nil else { return .beforeFirstUnlock }
        if store.isLocked { return .locked }
        // Class A gone with no lock recorded (a lock cut short between the two): the keys decide, so it is locked.
        return try store.get(.whenUnlocked) == nil ? .locked : .unlocked
    }

    func info(attempter: PasscodeAttempter = .anyone) throws -> KeychainInfo {
        let document = try current().document
        let backOff = document.passcode?.backOff(of: attempter)
        let retry = max(0, (backOff?.notBefore ?? 0) - clock().timeIntervalSinceReferenceDate)
        return KeychainInfo(
            lockState: try lockState(), hasPasscode: document.passcode != nil,
            gracePeriod: document.gracePeriod ?? KeybagDocument.defaultGracePeriod,
            kdfIterations: document.passcode?.iterations, kdfMilliseconds: document.passcode?.milliseconds,
            failedAttempts: backOff?.failures ?? 0, retryAfterSeconds: retry, classKeyStore: store.name)
    }

    // MARK: - Commands

    /// Locks: class A goes after the grace period; class C stays until restart. Locking again while locked
    /// does not restart the grace period (it may end it sooner: the earlier deadline wins); it completes a lock
    /// that was cut short.
    func lock() throws {
        // Under the keybag's file lock, as unlocks are: a lock and an unlock of two processes take turns, so
        // neither can leave a recorded lock beside class A keys without an expiry.
        try SecretFile.withExclusiveLock(lockURL) {
            let document = try current().document
            guard document.passcode != nil else { return }
            let stored = document.gracePeriod ?? KeybagDocument.defaultGracePeriod
            // A keybag written before the range was checked may hold anything; a period that cannot be honoured
            // is no period: class A goes at once.
            let seconds = KeybagDocument.gracePeriodRange.contains(stored) ? stored : 0
            try store.lock(classAExpiresAfter: seconds)
        }
    }

    /// Forgets every unlocked class key, as a restart of the machine does.
    func simulateRestart() {
        store.clear()
    }

    /// Sets how long class A stays available after a lock.
    func setGracePeriod(_ seconds: Int) throws {
        guard KeybagDocument.gracePeriodRange.contains(seconds) else {
            throw KeychainError.param.because(
                "the grace period must be from 0 to \(KeybagDocument.gracePeriodRange.upperBound) seconds (one day), "
                    + "not \(seconds)")
        }
        try modify { document in document.gracePeriod = seconds }
    }

    /// Unlocks with `passcode`. Without a passcode set, there is nothing to unlock.
    /// - Throws: `errSecAuthFailed` for a wrong passcode, or while `attempter`'s wrong attempts are being
    ///   rate-limited.
    func unlock(passcode: SecureBytes, attempter: PasscodeAttempter = .anyone) throws {
        let derived = try currentPasscodeKey(passcode, attempter: attempter)
        try modify { document in
            guard document.passcode != nil else { return }
            let keys = try openProtectedKeys(&document, passcode: passcode, attempter: attempter, derived: derived)
            try store.put(keys)
        }
    }

    /// Checks `passcode` without unlocking (a device-passcode authentication), rate-limited and counted with
    /// `attempter`'s attempts like ``unlock(passcode:attempter:)``.
    /// - Throws: `errSecAuthFailed` for a wrong passcode, while rate-limited, or when no passcode is set.
    func verifyPasscode(_ passcode: SecureBytes, attempter: PasscodeAttempter = .anyone) throws {
        let derived = try currentPasscodeKey(passcode, attempter: attempter)
        try modify { document in
            guard document.passcode != nil else {
                throw KeychainError.authFailed.because("no keychain passcode is set")
            }
            _ = try openProtectedKeys(&document, passcode: passcode, attempter: attempter, derived: derived)
        }
    }

    /// The key `devicePasscode` constraints are bound to: derived from the WhenPasscodeSetThisDeviceOnly class
    /// key, so it exists only while a passcode is set (and dies with it) and only after an unlock.
    /// - Throws: `errSecAuthFailed` without a passcode; `errSecInteractionNotAllowed` while locked.
    func passcodeConstraintKey() throws -> SecureBytes {
        guard try hasPasscode else {
            throw KeychainError.authFailed.because(
                "a devicePasscode constraint needs a keychain passcode, and none is set")
        }
        guard let stored = try store.get(.whenPasscodeSetThisDeviceOnly) else {
            throw KeychainError.interactionNotAllowed.because(
                "the keychain is \(Keychain.lockStateName(try lockState())); "
                    + "devicePasscode constraints need it unlocked")
        }
        // The root from the keybag the key was found current in: waiting for another process's change, the key
        // may be of a later keybag than the one read first.
        let (key, _, settled) = try currentStoredKey(stored, .whenPasscodeSetThisDeviceOnly, in: try current())
        return try KeyDerivation.hkdfSHA256(
            key: try Self.passcodeConstraintRoot(in: settled.document, classKey: key),
            salt: Array(KeyHierarchy.derivationSalt.utf8), info: Array(KeyHierarchy.devicePasscodeConstraint.utf8))
    }

    /// What the devicePasscode constraint key is derived from: the `akpu` key of when the passcode was set, kept
    /// under `akpu`'s current key `classKey` once that has been renewed (``KeybagDocument/passcodeConstraintRoot``).
    /// - Throws: `errSecNotAvailable` when `classKey` does not open it (the keybag is damaged).
    static func passcodeConstraintRoot(in document: KeybagDocument, classKey: SecureBytes) throws
        -> SecureBytes
    {
        guard let wrapped = document.wrappedPasscodeConstraintRoot else { return classKey }
        do {
            return try AESKeyWrap.unwrap(wrapped, kek: classKey)
        } catch {
            throw KeychainError.notAvailable.because(
                "the keybag's key for devicePasscode constraints is damaged; items needing the passcode cannot open")
        }
    }

    /// Checks `passcode` against the keybag (rate-limited by `attempter`'s count of wrong attempts) and returns
    /// the unwrapped A and C class keys.
    func openProtectedKeys(
        _ document: inout KeybagDocument, passcode: SecureBytes, attempter: PasscodeAttempter,
        derived: DerivedPasscodeKey? = nil
    ) throws -> [Accessibility: SecureBytes] {
        guard var record = document.passcode, let salt = Data(base64Encoded: record.salt) else {
            throw KeychainError.notAvailable.because("the keybag's passcode record is damaged")
        }
        let now = clock().timeIntervalSinceReferenceDate
        let backOff = record.backOff(of: attempter)
        if backOff.notBefore > now {
            // Bounded before the conversion: the clock is the caller's, and Int(_:) traps out of range.
            let wait = min(backOff.notBefore - now, 86_400).rounded(.up)
            throw KeychainError.authFailed.because("too many wrong passcodes; try again in \(Int(wait)) s")
        }
        let wrappingKey =
            if let derived, derived.isFor(record, salt: salt) {
                derived.key
            } else {
                try PasscodeKDF.derive(
                    passcode: passcode, salt: Array(salt), iterations: record.iterations, deviceKey: deviceKey)
            }
        var keys: [Accessibility: SecureBytes] = [:]
        var damaged: [Accessibility] = []
        for protection in Accessibility.allCases where KeybagDocument.isPasscodeProtected(protection) {
            guard let wrapped = document.wrapped(protection) else { continue }
            do {
                keys[protection] = try AESKeyWrap.unwrap(wrapped, kek: wrappingKey)
            } catch {
                damaged.append(protection)
            }
        }
        // A passcode that opens some class keys is the right one: a key it does not open was damaged, which is
        // no wrong attempt (counting it would lock the owner out for the file's fault).
        if !damaged.isEmpty, !keys.isEmpty {
            let names = damaged.map(\.rawValue).joined(separator: ", ")
            throw KeychainError.notAvailable.because("the keybag's wrapped class key of \(names) is damaged")
        }
        if !damaged.isEmpty {
            let failures = backOff.failures + 1
            record.setBackOff(failures: failures, notBefore: now + Self.delay(afterFailures: failures), of: attempter)
            document.passcode = record
            throw PendingFailure(
                document: document,
                error: KeychainError.authFailed.because("wrong passcode (\(failures) wrong in a row)"))
        }
        if record.hasFailures {
            record.clearFailures()
            document.passcode = record
        }
        // A keybag written by an earlier version (or rewritten by one since) has no check values: the right
        // passcode gives them, so stale keys held elsewhere are told apart from here on.
        if document.keyChecks == nil { document.keyChecks = try Self.checkValues(of: keys) }
        return keys
    }

    /// Delays after wrong passcodes, growing as on Apple devices.
    static func delay(afterFailures failures: Int) -> Double {
        switch failures {
        case ..<5: 0
        case 5: 60
        case 6: 300
        case 7, 8: 900
        default: 3600
        }
    }

    /// A failure that must still save the keybag (the count of wrong attempts).
    private struct PendingFailure: Error {
        let document: KeybagDocument
        let error: KeychainError
    }

    /// Read-modify-write of the keybag under the file lock; the file is replaced atomically, and saved even
    /// when `body` fails with a ``PendingFailure``.
    /// `afterSave` runs once the document is saved, still under the lock.
    func modify(_ body: (inout KeybagDocument) throws -> Void, then afterSave: () throws -> Void = {}) throws {
        try SecretFile.withExclusiveLock(lockURL) {
            let fresh = try Self.load(keybagURL, deviceKey: deviceKey)
            var document = fresh.document
            do {
                try body(&document)
            } catch let pending as PendingFailure {
                try save(pending.document)
                throw pending.error
            }
            if document != fresh.document { try save(document) }
            try afterSave()
        }
    }

    private func save(_ document: KeybagDocument) throws {
        do {
            try SecretFile.replace(keybagURL, bytes: try document.encoded())
        } catch {
            // The file may hold either document now (the rename may have happened): the next use reads it.
            snapshot.withLock { $0 = nil }
            throw error
        }
        // From what was written, not read back: a failed read here would keep the old snapshot in use (keychaind
        // never looks at the file again) while the file says otherwise, say a passcode set and none known.
        let written = try? Self.snapshot(
            of: document, identity: SecretFile.fileIdentity(path: keybagURL.path), deviceKey: deviceKey)
        snapshot.withLock { $0 = written }
        AESGCM.forgetKeySchedules()
    }
}
