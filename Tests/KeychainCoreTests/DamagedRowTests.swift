import Foundation
import KeychainStore
import Testing

@testable import KeychainCore

/// One damaged row hides nothing else: searches, listings and backups skip it and say so, and it can be deleted.
@Suite struct DamagedRowTests {
    /// A home with three generic passwords of service "s" (alice, bob, carol), alice's wrapped item key damaged, so
    /// nothing of hers decrypts. (Damage confined to the attributes shows only to calls that read them: a
    /// data-only lookup of format 3 opens the secret alone, as `IndexBoundSecretTests` checks.)
    private func homeWithOneDamagedItem() throws -> URL {
        let home = temporaryHome()
        let keychain = try makeKeychain(home: home)
        for account in ["alice", "bob", "carol"] {
            try keychain.add(genericPassword(service: "s", account: account, secret: "\(account)-secret"))
        }
        keychain.close()
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        let rows = try database.statement("SELECT rowid, wrappedkey FROM genp ORDER BY rowid").rows()
        var wrapped = try #require(rows.first?[1].blobValue)
        wrapped[wrapped.count / 2] ^= 0x01
        try database.statement("UPDATE genp SET wrappedkey = ? WHERE rowid = ?").run([.blob(wrapped), rows[0][0]])
        return home
    }

    @Test func searchForAllSkipsTheDamagedRowAndSaysSo() throws {
        let keychain = try makeKeychain(home: try homeWithOneDamagedItem())
        let report = try keychain.search(
            genericQuery([.service: .string("s")], limit: .all, returns: [.attributes, .data]))
        let accounts = report.results.compactMap { result -> String? in
            guard case .string(let account)? = result.attributes?[.account] else { return nil }
            return account
        }
        #expect(accounts == ["bob", "carol"])
        #expect(report.damaged == 1)
        #expect(report.note?.contains("damaged") == true)
    }

    @Test func searchForOneLooksPastTheDamagedRow() throws {
        let keychain = try makeKeychain(home: try homeWithOneDamagedItem())
        let results = try keychain.copyMatching(genericQuery([.service: .string("s")], returns: .data))
        #expect(results.first?.data?.bytes == Array("bob-secret".utf8))
    }

    @Test func searchThatFindsOnlyTheDamagedRowIsADecodeError() throws {
        let keychain = try makeKeychain(home: try homeWithOneDamagedItem())
        let error = #expect(throws: KeychainError.self) {
            try keychain.copyMatching(genericQuery([.account: .string("alice")], returns: .data))
        }
        #expect(error?.status == -26275)
        #expect(error?.reason?.contains("damaged") == true)
    }

    @Test func backupLeavesTheDamagedRowOutAndCountsIt() throws {
        let keychain = try makeKeychain(home: try homeWithOneDamagedItem())
        let file = temporaryHome().appendingPathExtension("backup")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let summary = try keychain.backup(to: file, password: Secret(Array("pw".utf8)))
        #expect(summary.itemCount == 2 && summary.damagedCount == 1)
    }

    @Test func theDamagedRowCanBeDeleted() throws {
        let keychain = try makeKeychain(home: try homeWithOneDamagedItem())
        #expect(try keychain.delete(genericQuery([.account: .string("alice")], limit: .all)) == 1)
        #expect(try keychain.copyMatching(genericQuery([.service: .string("s")], limit: .all)).count == 2)
    }
}
