import Foundation
import KeychainStore
import Testing

@testable import KeychainCore

/// Rows altered on disk fail to open with errSecDecode; they never yield another item's data.
@Suite struct TamperingTests {
    /// A closed keychain home with two generic passwords, "alice" (added first) and "bob".
    private func homeWithTwoItems() throws -> URL {
        let home = temporaryHome()
        let keychain = try makeKeychain(home: home)
        try keychain.add(
            genericPassword(
                service: "s", account: "alice", secret: "alice-secret",
                extra: [.label: .string("Alice")]))
        try keychain.add(
            genericPassword(
                service: "s", account: "bob", secret: "bob-secret",
                extra: [.label: .string("Bob")]))
        keychain.close()
        return home
    }

    /// Opens the home's database directly and runs `body` on it.
    private func withDatabase(_ home: URL, _ body: (Database) throws -> Void) throws {
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        try body(database)
    }

    private func column(_ name: String, of database: Database) throws -> [[UInt8]] {
        try database.statement("SELECT \(name) FROM genp ORDER BY rowid").rows().map { $0[0].blobValue ?? [] }
    }

    private func swap(_ column: String, in home: URL) throws {
        try withDatabase(home) { database in
            let values = try self.column(column, of: database)
            #expect(values.count == 2)
            let update = try database.statement("UPDATE genp SET \(column) = ? WHERE rowid = ?")
            let rowids = try database.statement("SELECT rowid FROM genp ORDER BY rowid").rows().map { $0[0] }
            try update.run([.blob(values[1]), rowids[0]])
            try update.run([.blob(values[0]), rowids[1]])
        }
    }

    private func flipByte(in column: String, at offset: Int, in home: URL) throws {
        try withDatabase(home) { database in
            var value = try self.column(column, of: database)[0]
            value[offset % value.count] ^= 0x01
            try database.statement("UPDATE genp SET \(column) = ? WHERE rowid = (SELECT min(rowid) FROM genp)")
                .run([.blob(value)])
        }
    }

    private func expectDecodeError(_ home: URL, returns: ReturnOptions, account: String = "alice") throws {
        let keychain = try makeKeychain(home: home)
        let error = #expect(throws: KeychainError.self) {
            try keychain.copyMatching(genericQuery([.account: .string(account)], returns: returns))
        }
        #expect(error?.status == -26275)
    }

    @Test func swappedSecretsFailToDecode() throws {
        let home = try homeWithTwoItems()
        try swap("secret", in: home)
        try expectDecodeError(home, returns: .data)
        try expectDecodeError(home, returns: .data, account: "bob")
    }

    @Test func swappedMetadataFailsToDecode() throws {
        let home = try homeWithTwoItems()
        try swap("meta", in: home)
        try expectDecodeError(home, returns: .attributes)
        try expectDecodeError(home, returns: .attributes, account: "bob")
    }

    @Test func swappedWrappedKeysFailToDecode() throws {
        let home = try homeWithTwoItems()
        try swap("wrappedkey", in: home)
        try expectDecodeError(home, returns: .data)
    }

    @Test func swappedWholeCiphertextsFailToDecode() throws {
        let home = try homeWithTwoItems()
        for column in ["wrappedkey", "meta", "secret"] { try swap(column, in: home) }
        try expectDecodeError(home, returns: .data)
        try expectDecodeError(home, returns: .attributes)
    }

    @Test(arguments: ["secret", "meta", "wrappedkey", "uuid"])
    func flippedByteFailsToDecode(column: String) throws {
        for offset in [0, 17, 1000] {
            let home = try homeWithTwoItems()
            try flipByte(in: column, at: offset, in: home)
            try expectDecodeError(home, returns: column == "meta" ? .attributes : [.data, .attributes])
            // The other item is untouched.
            #expect(try makeKeychain(home: home).secret(genericQuery([.account: .string("bob")])) == "bob-secret")
        }
    }

    @Test func changedProtectionClassFailsToDecode() throws {
        let home = try homeWithTwoItems()
        try withDatabase(home) { database in
            try database.statement("UPDATE genp SET pdmn = 'dk' WHERE rowid = (SELECT min(rowid) FROM genp)").run()
        }
        try expectDecodeError(home, returns: .data)
    }

    @Test(arguments: ["version + 1", "version - 1"])
    func changedFormatVersionFailsToDecode(change: String) throws {
        // A row claiming an older format would otherwise skip the seal around a constrained secret's envelope.
        let home = try homeWithTwoItems()
        try withDatabase(home) { database in
            try database.statement("UPDATE genp SET version = \(change) WHERE rowid = (SELECT min(rowid) FROM genp)")
                .run()
        }
        try expectDecodeError(home, returns: .data)
    }

    /// Lookups compare digest columns in SQL; a row whose digests were swapped with another's must not hand out
    /// its secret for the other's query.
    @Test func swappedLookupDigestsNeverReturnTheOtherSecret() throws {
        let home = try homeWithTwoItems()
        for column in ["d_acct", "f_acct", "d_labl", "f_labl"] { try swap(column, in: home) }
        try expectDecodeError(home, returns: .data)
        try expectDecodeError(home, returns: .data, account: "bob")
        try expectDecodeError(home, returns: .persistentReference)
        let keychain = try makeKeychain(home: home)
        let error = #expect(throws: KeychainError.self) {
            try keychain.update(
                genericQuery([.account: .string("alice")], limit: .all),
                with: ItemChanges(data: Array("stolen".utf8)))
        }
        #expect(error?.status == -26275)
    }

    /// A delete checks what it removes as an update does: a query for alice must not remove bob's item.
    @Test func swappedLookupDigestsNeverDeleteTheOtherItem() throws {
        let home = try homeWithTwoItems()
        try swap("d_acct", in: home)
        let keychain = try makeKeychain(home: home)
        let error = #expect(throws: KeychainError.self) {
            try keychain.delete(genericQuery([.account: .string("alice")], limit: .all))
        }
        #expect(error?.status == -26275)
        // Nothing was deleted: both rows are still there.
        var rows = 0
        try withDatabase(home) { rows = try self.column("uuid", of: $0).count }
        #expect(rows == 2)
    }
}
