import Foundation
import KeychainCrypto
import KeychainStore
import Synchronization

/// An open keychain: the engine behind `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` and
/// `SecItemDelete`, as a typed Swift API. One table per item class, every item encrypted under its own key.
///
/// Thread-safe: calls are serialized on one SQLite connection. Several processes may open the same home;
/// SQLite's locking and the primary-key constraint keep them consistent.
public final class Keychain: Sendable {
    /// The database file inside the keychain home.
    public static let databaseFileName = "keychain.db"

    public let configuration: KeychainConfiguration
    let dataProtection: ProtectionState
    /// The authenticators behind `LAContext` and access-control constraints.
    public let authenticators: Authenticators
    let digester: IndexDigester
    private let store: Mutex<ItemStore?>

    /// Opens (creating on first use) the keychain described by `configuration`.
    /// - Throws: `KeychainError` with `errSecNotAvailable` when the home, keybag or database cannot be used.
    public init(configuration: KeychainConfiguration) throws {
        self.configuration = configuration
        dataProtection = try ProtectionState(
            home: configuration.home, kdfTarget: configuration.passcodeDerivationTarget, clock: configuration.clock)
        digester = try IndexDigester(indexKey: dataProtection.indexKey)
        authenticators = Authenticators(
            protection: dataProtection, clock: configuration.clock, owner: configuration.ownerAuthentication,
            fingerprintReader: configuration.fingerprintReader)
        let path = configuration.home.appendingPathComponent(Self.databaseFileName).path
        let opened: ItemStore
        // SQLite creates its -wal and -shm files with the database file's mode: make that owner-only first.
        try SecretFile.createOwnerOnly(configuration.home.appendingPathComponent(Self.databaseFileName))
        do {
            let database = try Database(path: path)
            do {
                opened = try ItemStore(database: database, tables: ItemTables.all)
            } catch {
                database.close()
                throw error
            }
        } catch let error as StoreError {
            throw KeychainError.notAvailable.because("cannot open \(path): \(error.message)")
        }
        store = Mutex(opened)
        // A crash between removing the passcode and purging its class's items leaves rows nothing can open.
        try purgeItemsOfDestroyedClasses()
        // Opportunistic: a row whose class is locked, or a database busy with another writer, waits for later.
        try? upgradeItemFormats()
    }

    deinit { close() }

    /// Closes the database connection; later calls fail with `errSecNotAvailable`.
    public func close() {
        store.withLock { current in
            current?.database.close()
            current = nil
        }
    }

    /// Runs `body` with the store under the lock, turning storage failures into keychain errors.
    func withStore<R: Sendable>(_ body: (ItemStore) throws -> R) throws -> R {
        try store.withLock { current in
            guard let current else { throw KeychainError.notAvailable.because("the keychain was closed") }
            do {
                return try body(current)
            } catch let error as StoreError {
                throw Self.translate(error)
            } catch let error as CryptoError {
                throw KeychainError(SecurityStatus.internalComponent, reason: "\(error)")
            }
        }
    }

    private static func translate(_ error: StoreError) -> KeychainError {
        if error.isUniqueViolation { return KeychainError.duplicateItem }
        if error.isCorrupt { return KeychainError.notAvailable.because("the keychain database is damaged") }
        if error.primaryCode == 13 { return KeychainError(SecurityStatus.diskFull, reason: error.message) }
        if error.isBusy { return KeychainError.io.because("the keychain is locked by another process for too long") }
        return KeychainError.io.because(error.message)
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
