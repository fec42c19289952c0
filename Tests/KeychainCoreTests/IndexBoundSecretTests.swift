import Foundation
import KeychainStore
import Testing

@testable import KeychainCore

/// Item format 3 binds a row's lookup digests into its secret's seal, so a data-only lookup whose conditions are
/// all answered by digests returns the secret without decrypting the attributes, and a row whose digests were
/// swapped with another's still never hands out the other item's secret.
@Suite struct IndexBoundSecretTests {
    /// A closed home with generic passwords "alice" (added first), "bob" and "carol", each with a label.
    private func homeWithItems() throws -> URL {
        let home = temporaryHome()
        let keychain = try makeKeychain(home: home)
        for name in ["alice", "bob", "carol"] {
            try keychain.add(
                genericPassword(
                    service: "s", account: name, secret: "\(name)-secret", extra: [.label: .string(name.uppercased())]))
        }
        keychain.close()
        return home
    }

    private func withDatabase(_ home: URL, _ body: (Database) throws -> Void) throws {
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        try body(database)
    }

    /// Swaps `columns` between the first two rows of `table` (by rowid).
    private func swap(_ columns: [String], in home: URL, table: String = "genp", rows: (Int, Int) = (0, 1)) throws {
        try withDatabase(home) { database in
            let rowids = try database.statement("SELECT rowid FROM \(table) ORDER BY rowid").rows().map { $0[0] }
            for column in columns {
                let values = try database.statement("SELECT \(column) FROM \(table) ORDER BY rowid").rows()
                    .map { $0[0] }
                let update = try database.statement("UPDATE \(table) SET \(column) = ? WHERE rowid = ?")
                try update.run([values[rows.1], rowids[rows.0]])
                try update.run([values[rows.0], rowids[rows.1]])
            }
        }
    }

    private func versions(_ home: URL, table: String = "genp") throws -> [Int64] {
        var found: [Int64] = []
        try withDatabase(home) { database in
            found = try database.statement("SELECT version FROM \(table) ORDER BY rowid").rows()
                .compactMap { $0[0].integerValue }
        }
        return found
    }

    /// The secret a data-only lookup of `attributes` returned, or its status as text.
    private func lookup(
        _ keychain: Keychain, _ attributes: [AttributeKey: AttributeValue], returns: ReturnOptions = .data,
        caseInsensitive: Bool = false
    ) -> String {
        do {
            let found = try keychain.copyMatching(
                genericQuery(attributes, returns: returns, caseInsensitive: caseInsensitive))
            return found.first?.data.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        } catch let error as KeychainError {
            return "\(error.status)"
        } catch {
            return "\(error)"
        }
    }

    @Test func newItemsAreWrittenInFormatThree() throws {
        #expect(ItemSealer.formatVersion == 3)
        let home = try homeWithItems()
        #expect(try versions(home) == [3, 3, 3])
    }

    @Test func dataOnlyLookupsReturnTheRightSecret() throws {
        let keychain = try makeKeychain(home: try homeWithItems())
        for name in ["alice", "bob", "carol"] {
            #expect(lookup(keychain, [.service: .string("s"), .account: .string(name)]) == "\(name)-secret")
            #expect(lookup(keychain, [.label: .string(name.uppercased())]) == "\(name)-secret")
            #expect(
                lookup(keychain, [.account: .string(name.uppercased())], caseInsensitive: true)
                    == "\(name)-secret")
            #expect(
                lookup(keychain, [.account: .string(name)], returns: [.data, .persistentReference])
                    == "\(name)-secret")
        }
        #expect(lookup(keychain, [.account: .string("dave")]) == "-25300")
        // By persistent reference, and with a date condition (which needs the attributes).
        let reference = try #require(
            try keychain.copyMatching(genericQuery([.account: .string("bob")], returns: .persistentReference))
                .first?.persistentReference)
        var byReference = ItemQuery(persistentReference: reference)
        byReference.returns = .data
        #expect(try keychain.copyMatching(byReference).first?.data?.bytes == bytes("bob-secret"))
    }

    @Test func aDataOnlyLookupNeedsNoAttributes() throws {
        // The secret's seal authenticates the digests the lookup matched, so the attributes are not opened:
        // damaged attributes fail only the calls that read them.
        let home = try homeWithItems()
        try withDatabase(home) { database in
            try database.statement("UPDATE genp SET meta = x'00' WHERE rowid = (SELECT min(rowid) FROM genp)").run()
        }
        let keychain = try makeKeychain(home: home)
        #expect(lookup(keychain, [.account: .string("alice")]) == "alice-secret")
        #expect(lookup(keychain, [.account: .string("alice")], returns: [.data, .attributes]) == "-26275")
    }

    @Test(arguments: [
        ["d_acct"], ["d_acct", "f_acct"], ["d_labl", "f_labl", "d_acct", "f_acct"],
        ["d_agrp", "d_sync", "d_svce", "f_svce", "d_acct", "f_acct", "d_labl", "f_labl"],
    ])
    func swappedDigestsNeverReturnTheOtherSecret(columns: [String]) throws {
        let home = try homeWithItems()
        try swap(columns, in: home)
        let keychain = try makeKeychain(home: home)
        // alice's query now selects bob's row and the reverse: both answer as a damaged row does.
        #expect(lookup(keychain, [.account: .string("alice")]) == "-26275")
        #expect(lookup(keychain, [.account: .string("bob")]) == "-26275")
        #expect(lookup(keychain, [.service: .string("s"), .account: .string("bob")]) == "-26275")
        #expect(lookup(keychain, [.account: .string("ALICE")], caseInsensitive: true) == "-26275")
        #expect(lookup(keychain, [.account: .string("carol")]) == "carol-secret")
    }

    @Test func swappedSecretAndDigestsTogetherStillFail() throws {
        // Moving the secret with the digests is moving a ciphertext to another row: its UUID no longer matches.
        let home = try homeWithItems()
        try swap(["secret", "d_acct", "f_acct"], in: home)
        let keychain = try makeKeychain(home: home)
        #expect(lookup(keychain, [.account: .string("alice")]) == "-26275")
        #expect(lookup(keychain, [.account: .string("bob")]) == "-26275")
    }

    @Test func anUpdatedItemIsRewrittenInFormatThreeAndReads() throws {
        let home = try homeWithItems()
        let keychain = try makeKeychain(home: home)
        try keychain.update(
            genericQuery([.account: .string("bob")], limit: .all),
            with: ItemChanges(attributes: [.account: .string("robert")]))
        #expect(lookup(keychain, [.account: .string("robert")]) == "bob-secret")
        #expect(lookup(keychain, [.account: .string("bob")]) == "-25300")
        try keychain.update(
            genericQuery([.account: .string("robert")], limit: .all), with: ItemChanges(data: bytes("new")))
        #expect(lookup(keychain, [.account: .string("robert")]) == "new")
        keychain.close()
        #expect(try versions(home) == [3, 3, 3])
    }
}
