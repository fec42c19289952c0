import Foundation
import KeychainCrypto
import KeychainStore
import Synchronization

/// An open keychain: the engine behind `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` and
/// `SecItemDelete`, as a typed Swift API. One table per item class, every item encrypted under its own key.
///
/// Thread-safe: calls are serialized on one SQLite connection (with group commit, writes go to the committer's
/// and searches to connections of their own, side by side). Several processes may open the same home; SQLite's
/// locking and the primary-key constraint keep them consistent.
public final class Keychain: Sendable {
    /// The database file inside the keychain home.
    package static let databaseFileName = "keychain.db"

    public let configuration: KeychainConfiguration
    let dataProtection: ProtectionState
    /// The authenticators behind `LAContext` and access-control constraints.
    public let authenticators: Authenticators
    /// The authentication contexts requests name by id (`LAContext`s, `kSecUseAuthenticationContext`).
    package let authenticationContexts = AuthenticationContextRegistry()
    let digester: IndexDigester
    /// The reads' connection; one caller at a time, and a waiting caller sleeps rather than spins.
    private let store: SleepingLock<ItemStore?>
    /// The writer of adds, updates and deletes when ``KeychainConfiguration/groupCommit`` is on.
    let committer: CommittedWriter?
    /// More connections for searches when ``KeychainConfiguration/groupCommit`` is on (keychaind, where many
    /// callers search at once): WAL lets them read side by side instead of queueing on ``store``.
    private let readers: [SleepingLock<ItemStore?>]
    /// Where the next search starts looking for a free reader.
    private let nextReader = Atomic<UInt>(0)

    /// Opens (creating on first use) the keychain described by `configuration`.
    /// - Throws: `KeychainError` with `errSecParam` for settings out of range; `errSecNotAvailable` when the home,
    ///   keybag or database cannot be used, or stays busy with another process's write (then transient).
    public init(configuration: KeychainConfiguration) throws {
        try configuration.validate()
        self.configuration = configuration
        try SecretFile.createDirectory(configuration.home)
        // The database opens first: whether it holds items decides if a missing keybag may be created.
        let opened = try Self.openStore(configuration)
        do {
            dataProtection = try ProtectionState(
                home: configuration.home, kdfTarget: configuration.passcodeDerivationTarget,
                clock: configuration.clock, keysInProcessMemory: configuration.classKeysInProcessMemory,
                keybagChangesOnlyHere: configuration.soleWriterOfHome, mayCreateKeybag: { try !opened.holdsRows() })
            digester = try IndexDigester(indexKey: dataProtection.indexKey)
        } catch let error as StoreError {
            opened.database.close()
            throw Self.translate(error, busyTimeout: configuration.databaseBusyTimeout)
        } catch {
            opened.database.close()
            throw error
        }
        authenticators = Authenticators(
            protection: dataProtection, clock: configuration.clock, unscripted: UnscriptedPasscodeAnswer(configuration),
            fingerprintReader: configuration.fingerprintReader, prompter: configuration.userPrompter)
        var writer: CommittedWriter?
        var searchers: [ItemStore] = []
        do {
            if configuration.groupCommit {
                writer = try CommittedWriter(Self.openStore(configuration, creatingFile: false))
                for _ in 0..<Self.searchConnections {
                    searchers.append(try Self.openStore(configuration, creatingFile: false))
                }
            }
        } catch {
            writer?.close()
            for searcher in searchers { searcher.database.close() }
            opened.database.close()
            throw error
        }
        committer = writer
        readers = searchers.map { SleepingLock($0) }
        store = SleepingLock(opened)
        // A crash between removing the passcode and purging its class's items leaves rows nothing can open.
        try purgeItemsOfDestroyedClasses()
        // Opportunistic: a row whose class is locked, or a database busy with another writer, waits for later.
        try? finishUnfinishedRenewal()
        try? upgradeItemFormats()
    }

    /// - Parameter creatingFile: false for a second connection: closing a descriptor of the open database file
    ///   would drop the POSIX locks the first connection holds on it.
    private static func openStore(_ configuration: KeychainConfiguration, creatingFile: Bool = true) throws
        -> ItemStore
    {
        let path = configuration.home.appendingPathComponent(databaseFileName).path
        // SQLite creates its -wal and -shm files with the database file's mode: make that owner-only first.
        if creatingFile { try SecretFile.createOwnerOnly(configuration.home.appendingPathComponent(databaseFileName)) }
        // Validated to 0…3600 s, so the milliseconds fit.
        let busyMilliseconds = Int32((configuration.databaseBusyTimeout * 1000).rounded(.up))
        do {
            let database = try Database(
                path: path, busyTimeout: busyMilliseconds, processExclusive: configuration.soleWriterOfHome)
            do {
                let store = try ItemStore(
                    database: database, tables: ItemTables.all, migrations: SchemaHistory.migrations)
                // After the migrations, which must not stop at a bound a new release's format may pass.
                if let bytes = configuration.largestDatabaseBytes { try database.limitSize(toBytes: bytes) }
                return store
            } catch {
                database.close()
                throw error
            }
        } catch let error as StoreError {
            if error.isBusy { throw translate(error, busyTimeout: configuration.databaseBusyTimeout) }
            throw KeychainError.notAvailable.because("cannot open \(path): \(error.message)")
        }
    }

    deinit { close() }

    /// The searches' own connections with group commit: about as many as searches can run at once on the
    /// machines keychaind serves from.
    private static let searchConnections = 4

    /// Closes the database connections; later calls fail with `errSecNotAvailable`.
    public func close() {
        committer?.close()
        for reader in readers {
            reader.withLock { current in
                current?.database.close()
                current = nil
            }
        }
        store.withLock { current in
            current?.database.close()
            current = nil
        }
    }

    /// Runs a search's reading `body` on a free search connection (with group commit), else as ``withStore(_:)``.
    func withSearchStore<R: Sendable>(_ body: (ItemStore) throws -> R) throws -> R {
        guard !readers.isEmpty else { return try withStore(body) }
        let start = Int(nextReader.add(1, ordering: .relaxed).oldValue % UInt(readers.count))
        func run(_ current: inout ItemStore?) throws -> R {
            guard let current else { throw KeychainError.notAvailable.because("the keychain was closed") }
            do {
                return try body(current)
            } catch {
                throw translated(error)
            }
        }
        for offset in 0..<readers.count {
            let reader = readers[(start + offset) % readers.count]
            if let result = try reader.withLockIfAvailable(run) { return result }
        }
        return try readers[start].withLock(run)
    }

    /// Runs `body` with the store under the lock, turning storage failures into keychain errors.
    func withStore<R: Sendable>(_ body: (ItemStore) throws -> R) throws -> R {
        try store.withLock { current in
            guard let current else { throw KeychainError.notAvailable.because("the keychain was closed") }
            do {
                return try body(current)
            } catch {
                throw translated(error)
            }
        }
    }

    /// Storage and crypto failures as keychain errors; any other error as it is.
    func translated(_ error: any Error) -> any Error {
        if let error = error as? StoreError {
            return Self.translate(error, busyTimeout: configuration.databaseBusyTimeout)
        }
        if let error = error as? CryptoError {
            return KeychainError(SecurityStatus.internalComponent, reason: "\(error)")
        }
        return error
    }

    static func translate(_ error: StoreError, busyTimeout: Double) -> KeychainError {
        if error.isUniqueViolation { return KeychainError.duplicateItem }
        if error.isCorrupt { return KeychainError.notAvailable.because("the keychain database is damaged") }
        if error.isDiskFull { return KeychainError(SecurityStatus.diskFull).because(verbatim: error.message) }
        if error.isBusy {
            // Apple's keychain daemon turns the SQLite codes it does not name, SQLITE_BUSY among them, into
            // errSecNotAvailable, so a device answers a keychain that stays busy with -25291 too. The status is the
            // device's; the reason says what it means here: nothing is wrong, another process is writing.
            return KeychainError.notAvailable.because(
                "the keychain database is busy: another process has held its write lock for more than "
                    + "\(busyTimeout) s; nothing is damaged and nothing was changed, try again")
        }
        return KeychainError.io.because(verbatim: error.message)
    }

    /// The class key for `protection`. - Throws: `errSecInteractionNotAllowed` when the class is not
    /// available in the current lock state.
    func classKey(_ protection: Accessibility) throws -> AESKeyWrapper {
        try dataProtection.classKey(protection)
    }

    /// Checks the database file (`PRAGMA integrity_check`); returns "ok" when sound.
    public func integrityCheck() throws -> String {
        try withStore { try $0.database.integrityCheck() }
    }
}
