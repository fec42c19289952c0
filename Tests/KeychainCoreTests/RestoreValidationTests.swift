import Foundation
import KeychainCrypto
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Backups are files from elsewhere: a restore checks each item as an owner's write is checked, refuses a file
/// that asks for more work than any backup does before doing it, and says precisely what is wrong.
@Suite struct RestoreValidationTests {
    private static let group = "TEAM1.com.example.app"
    private let password = SecureBytes(Array("pw".utf8))

    private func entry(
        _ account: String, group: AttributeValue = .string(RestoreValidationTests.group), uuid: UInt8,
        extra: [AttributeKey: AttributeValue] = [:]
    ) -> BackupEntry {
        var attributes: [AttributeKey: AttributeValue] = [
            .account: .string(account), .service: .string("s"), .accessGroup: group,
            .synchronizable: .bool(false), .creationDate: .date(Date()), .modificationDate: .date(Date()),
        ]
        attributes.merge(extra) { $1 }
        return BackupEntry(
            itemClass: .genericPassword, uuid: Array(repeating: uuid, count: 16), protection: .afterFirstUnlock,
            attributes: attributes, secret: SecureBytes(Array("secret".utf8)))
    }

    /// A backup file of `contents`, sealed as the backup code seals (iterations as given).
    private func file(_ contents: BackupContents, iterations: Int = 1000) throws -> [UInt8] {
        try BackupArchive.seal(contents, password: password, iterations: iterations)
    }

    /// Restores `archive` into a fresh keychain: the error, and how many items the target holds afterwards.
    private func restoreFails(_ archive: [UInt8]) throws -> (KeychainError, Int) {
        let keychain = try makeKeychain()
        do {
            _ = try keychain.restore(archive: archive, password: Secret(Array("pw".utf8)))
        } catch let error as KeychainError {
            let left = try keychain.count(ItemQuery(itemClass: .genericPassword, synchronizable: .any))
            return (error, left)
        }
        Issue.record("the restore succeeded")
        return (KeychainError.param, -1)
    }

    /// The header with `change` applied and its checksum made right again, as a forger would.
    private func forgedHeader(_ archive: [UInt8], _ change: (inout [UInt8]) -> Void) throws -> [UInt8] {
        var forged = archive
        change(&forged)
        let checked = BackupArchive.headerSize - 16
        forged.replaceSubrange(
            checked..<BackupArchive.headerSize, with: try SHA256.hash(Array(forged[0..<checked])).prefix(16))
        return forged
    }

    // MARK: - Access groups

    @Test(arguments: ["", "com.apple.token"])
    func anItemInAGroupNoAppHoldsRestoresNothing(group: String) throws {
        let archive = try file(
            BackupContents(entries: [entry("good", uuid: 1), entry("bad", group: .string(group), uuid: 2)]))
        let (error, left) = try restoreFails(archive)
        #expect(error.status == SecurityStatus.decode)
        #expect(error.reason?.contains("access group \"\(group)\"") == true, "\(error.reason ?? "")")
        #expect(left == 0)
    }

    // MARK: - Key derivation bounds

    @Test func aBackupUsesAtLeastTheFixedMinimumOfIterationsWhateverThePasscodeTarget() throws {
        var configuration = KeychainConfiguration(
            home: temporaryHome(),
            identity: CallerIdentity(applicationIdentifier: Self.group, accessGroups: [Self.group]))
        configuration.passcodeDerivationTarget = 0.002
        let keychain = try Keychain(configuration: configuration)
        try keychain.add(genericPassword(account: "a"))
        let archive = try keychain.backupArchive(password: Secret(Array("pw".utf8))).archive
        let iterations = archive[11..<15].reduce(0) { $0 << 8 | Int($1) }
        #expect(iterations >= 600_000)
    }

    @Test func aHeaderAskingForMoreIterationsThanAnyBackupIsDamagedAndCostsNothing() throws {
        let archive = try file(BackupContents(entries: [entry("a", uuid: 1)]))
        let forged = try forgedHeader(archive) { bytes in
            bytes.replaceSubrange(11..<15, with: UInt32(50_000_000).bigEndianBytes)
        }
        let start = Date()
        let (error, _) = try restoreFails(forged)
        #expect(error.status == SecurityStatus.decode)
        #expect(Date().timeIntervalSince(start) < 2)
    }

    // MARK: - Precise reasons

    @Test func anUnknownKDFIsNamedAsSuch() throws {
        let archive = try file(BackupContents(entries: [entry("a", uuid: 1)]))
        let (error, _) = try restoreFails(try forgedHeader(archive) { $0[10] = 7 })
        #expect(error.status == SecurityStatus.decode)
        #expect(error.reason?.contains("KDF 7") == true, "\(error.reason ?? "")")
        #expect(error.reason?.contains("format 1") == false)
    }

    @Test func aBackupRepeatingAPersistentReferenceSaysSo() throws {
        let archive = try file(BackupContents(entries: [entry("a", uuid: 1), entry("b", uuid: 1)]))
        let (error, left) = try restoreFails(archive)
        #expect(error.reason?.contains("the backup itself") == true, "\(error.reason ?? "")")
        #expect(error.reason?.contains("restored before") == false)
        #expect(left == 0)
    }

    @Test func aBackupRepeatingAPrimaryKeySaysSo() throws {
        let archive = try file(BackupContents(entries: [entry("a", uuid: 1), entry("a", uuid: 2)]))
        let (error, left) = try restoreFails(archive)
        #expect(error.status == SecurityStatus.duplicateItem)
        #expect(error.reason?.contains("the backup itself") == true, "\(error.reason ?? "")")
        #expect(left == 0)
    }

    @Test func aForgedProtectionAttributeIsNamedWithoutContradiction() throws {
        let archive = try file(BackupContents(entries: [entry("a", uuid: 1, extra: [.accessible: .string("dk")])]))
        let (error, _) = try restoreFails(archive)
        #expect(error.status == SecurityStatus.decode)
        #expect(error.reason?.contains("its attributes are") == false, "\(error.reason ?? "")")
        #expect(error.reason?.contains("pdmn") == true)
    }

    @Test func anImpossibleCountOfItemsLeftOutIsDamage() throws {
        var contents = BackupContents(entries: [entry("a", uuid: 1)])
        contents.excludedCount = Int(UInt32.max)
        let (error, left) = try restoreFails(try file(contents))
        #expect(error.status == SecurityStatus.decode)
        #expect(left == 0)
    }
}
