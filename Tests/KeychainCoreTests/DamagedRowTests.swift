import Foundation
import KeychainStore
import Testing

@testable import KeychainCore

/// How alice's row is damaged.
enum RowDamage: CaseIterable, Sendable {
    /// A bit of her wrapped item key flipped, so nothing of hers decrypts.
    case wrappedKey
    /// Her protection class column names no class.
    case unknownProtection
}

/// One damaged row hides nothing else: searches, listings and backups skip it and say so, and it can be deleted.
@Suite struct DamagedRowTests {
    /// A home with three generic passwords of service "s" (alice, bob, carol), alice's row damaged. (Damage confined
    /// to the attributes shows only to calls that read them: a data-only lookup of format 3 opens the secret
    /// alone, as `IndexBoundSecretTests` checks.)
    private func homeWithOneDamagedItem(_ damage: RowDamage = .wrappedKey) throws -> URL {
        let home = temporaryHome()
        let keychain = try makeKeychain(home: home)
        for account in ["alice", "bob", "carol"] {
            try keychain.add(genericPassword(service: "s", account: account, secret: "\(account)-secret"))
        }
        keychain.close()
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        let rows = try database.statement("SELECT rowid, wrappedkey FROM genp ORDER BY rowid").rows()
        if damage == .unknownProtection {
            try database.statement("UPDATE genp SET pdmn = 'nonesuch' WHERE rowid = ?").run([rows[0][0]])
            return home
        }
        var wrapped = try #require(rows.first?[1].blobValue)
        wrapped[wrapped.count / 2] ^= 0x01
        try database.statement("UPDATE genp SET wrappedkey = ? WHERE rowid = ?").run([.blob(wrapped), rows[0][0]])
        return home
    }

    @Test(arguments: RowDamage.allCases)
    func searchForAllSkipsTheDamagedRowAndSaysSo(damage: RowDamage) throws {
        let keychain = try makeKeychain(home: try homeWithOneDamagedItem(damage))
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

    @Test(arguments: RowDamage.allCases)
    func searchForOneLooksPastTheDamagedRow(damage: RowDamage) throws {
        let keychain = try makeKeychain(home: try homeWithOneDamagedItem(damage))
        let results = try keychain.copyMatching(genericQuery([.service: .string("s")], returns: .data))
        #expect(results.first?.data?.bytes == Array("bob-secret".utf8))
    }

    @Test(arguments: RowDamage.allCases)
    func searchThatFindsOnlyTheDamagedRowIsADecodeError(damage: RowDamage) throws {
        let keychain = try makeKeychain(home: try homeWithOneDamagedItem(damage))
        let error = #expect(throws: KeychainError.self) {
            try keychain.copyMatching(genericQuery([.account: .string("alice")], returns: .data))
        }
        #expect(error?.status == -26275)
        #expect(error?.reason?.contains("damaged") == true)
    }

    @Test(arguments: RowDamage.allCases)
    func backupLeavesTheDamagedRowOutAndCountsIt(damage: RowDamage) throws {
        let keychain = try makeKeychain(home: try homeWithOneDamagedItem(damage))
        let file = temporaryHome().appendingPathExtension("backup")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let summary = try keychain.backup(to: file, password: Secret(Array("pw".utf8)))
        #expect(summary.itemCount == 2 && summary.damagedCount == 1)
    }

    @Test(arguments: RowDamage.allCases)
    func theDamagedRowCanBeDeleted(damage: RowDamage) throws {
        let keychain = try makeKeychain(home: try homeWithOneDamagedItem(damage))
        // Its dry run counts it, as the delete removes it.
        let preview = try keychain.previewDelete(genericQuery([.account: .string("alice")], limit: .all))
        #expect(preview.items.isEmpty && preview.unavailable == 1)
        #expect(try keychain.delete(genericQuery([.account: .string("alice")], limit: .all)) == 1)
        #expect(try keychain.copyMatching(genericQuery([.service: .string("s")], limit: .all)).count == 2)
    }
}
