import Foundation
import KeychainStore
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Opening a keychain takes no write lock, so a process whose first call is a read does not queue behind another
/// process's write; and a write lock held too long is reported as transient.
/// The caller identity of the data protection tests' keychains.
let protectionTestIdentity = CallerIdentity(
    applicationIdentifier: protectionTestGroup, accessGroups: [protectionTestGroup])

@Suite struct OpenLockingTests {
    /// A home with one readable item and its database path.
    private func homeWithItem() throws -> (home: URL, database: String) {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        try keychain.addToken("alice", .afterFirstUnlock)
        keychain.close()
        return (home, home.appendingPathComponent(Keychain.databaseFileName).path)
    }

    /// Runs `body` while another connection holds the database's write lock (`BEGIN IMMEDIATE`).
    private func whileAnotherConnectionWrites<R>(_ path: String, _ body: () throws -> R) throws -> R {
        let writer = try Database(path: path)
        defer { writer.close() }
        try writer.execute("BEGIN IMMEDIATE")
        defer { try? writer.execute("ROLLBACK") }
        return try body()
    }

    @Test func aChildProcesssFirstReadDoesNotWaitForAWrite() throws {
        let (home, path) = try homeWithItem()
        let (printed, seconds) = try whileAnotherConnectionWrites(path) {
            let started = Date()
            let printed = try TestChild.read(home, "alice").outputText
            return (printed, Date().timeIntervalSince(started))
        }
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(seconds < 5)
    }

    @Test func openingAndReadingTakeNoWriteLock() throws {
        let (home, path) = try homeWithItem()
        try whileAnotherConnectionWrites(path) {
            var configuration = KeychainConfiguration(home: home, identity: protectionTestIdentity)
            configuration.databaseBusyTimeout = 0.2
            let keychain = try Keychain(configuration: configuration)
            defer { keychain.close() }
            #expect(keychain.secretText("alice") == "alice")
        }
    }

    @Test func aWriteLockHeldTooLongIsReportedAsTransient() throws {
        let (home, path) = try homeWithItem()
        var configuration = KeychainConfiguration(home: home, identity: protectionTestIdentity)
        configuration.databaseBusyTimeout = 0.2
        let keychain = try Keychain(configuration: configuration)
        defer { keychain.close() }
        let caught: KeychainError? = try whileAnotherConnectionWrites(path) {
            do { try keychain.addToken("bob", .afterFirstUnlock) } catch let error as KeychainError { return error }
            return nil
        }
        // Apple's keychain daemon maps SQLite errors it does not name, SQLITE_BUSY among them, to -25291.
        #expect(caught?.status == SecurityStatus.notAvailable)
        #expect(caught?.reason?.contains("try again") == true)
        #expect(caught?.reason?.contains("busy") == true)
        // Once the other writer is done, the same call succeeds.
        try keychain.addToken("bob", .afterFirstUnlock)
        #expect(keychain.secretText("bob") == "bob")
    }

    @Test func aBusyTimeoutThatIsNotAFiniteNumberOfSecondsIsRefused() {
        for value in [-1, .nan, .infinity, 1e12] as [Double] {
            var configuration = KeychainConfiguration(home: temporaryHome(), identity: protectionTestIdentity)
            configuration.databaseBusyTimeout = value
            #expect(status { _ = try Keychain(configuration: configuration) } == SecurityStatus.param)
        }
    }
}
