import Foundation
import KeychainStore
import Testing

@testable import KeychainCore

/// Homes written by item format 2 (before secrets were bound to their lookup digests): they open, their rows read
/// and update with the full check, and each row is rewritten in format 3 once its class key is available.
/// One test at a time: every copy of the committed home is the same keychain, whose unlocked class keys the kernel
/// keyring holds for all of them, so one test's unlock would open another's locked copy.
@Suite(.serialized) struct ItemFormatThreeUpgradeTests {
    /// A copy of the committed home written by item format 2 (see its README).
    private func formatTwoHome() throws -> URL { try copyOfCommittedHome("items-format-2") }

    /// Each generic password's format version, by account.
    private func versions(_ keychain: Keychain) throws -> [String: Int64] {
        var found: [String: Int64] = [:]
        for account in ["plain", "twin-a", "twin-b", "after-first", "always", "biometry"] {
            let digest = try keychain.digester.digest(.account, .string(account))
            let rows = try keychain.withStore { store in
                try store.select(
                    from: "genp", where: RowFilter(digestsAnyOf: [(column: "d_acct", values: [digest])]),
                    reading: [])
            }
            found[account] = rows.first?.version
        }
        return found
    }

    private func webVersion(_ keychain: Keychain) throws -> Int64? {
        try keychain.withStore { try $0.select(from: "inet", where: RowFilter(), reading: []) }.first?.version
    }

    @Test func theFixtureIsFormatTwo() throws {
        let home = try formatTwoHome()
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        let versions = try database.statement("SELECT version FROM genp UNION SELECT version FROM inet").rows()
        #expect(versions == [[.integer(2)]])
    }

    /// The keybag of that release has one count of wrong passcodes: it opens as it is, the owner's wrong attempts
    /// go to a count of their own beside it, and a right passcode clears them, leaving the file's passcode record
    /// as that release wrote it.
    @Test func itsKeybagCountsTheOwnersWrongPasscodesApart() throws {
        let home = try formatTwoHome()
        let keybag = home.appendingPathComponent("keybag")
        let record = { () throws -> [String: Any]? in
            try (JSONSerialization.jsonObject(with: Data(contentsOf: keybag)) as? [String: Any])?["passcode"]
                as? [String: Any]
        }
        let written = try #require(try record())
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        #expect(throws: KeychainError.authFailed) {
            try keychain.unlock(passcode: Secret(bytes("0000")), attempter: .owner)
        }
        #expect(try record()?["ownerFailures"] as? Int == 1)
        #expect(try keychain.info().failedAttempts == 0)
        try keychain.unlock(passcode: Secret(bytes("1234")))
        #expect(try record().map { Set($0.keys) } == Set(written.keys))
        #expect(try record()?["failures"] as? Int == 0)
    }

    /// Also in batches of one and of two rows (a batch per transaction): the locked rows a batch skips do not stop
    /// the walk, and the unlock's walk reaches every row.
    @Test(arguments: [1_000, 1, 2])
    func lockedOpenRewritesOnlyTheClassesItCanOpen(batchRows: Int) throws {
        let keychain = try fastKDFKeychain(home: try formatTwoHome()) { $0.resealBatchRows = batchRows }
        defer { keychain.simulateRestart() }
        // A fresh boot: class A and C are locked, so their rows wait in format 2; class D is rewritten.
        let before = try versions(keychain)
        #expect(before["always"] == 3)
        #expect(try webVersion(keychain) == 3)
        for account in ["plain", "twin-a", "twin-b", "after-first", "biometry"] {
            #expect(before[account] == 2, "\(account)")
        }
        #expect(keychain.secretText("always") == "secret-always")
        #expect(keychain.readStatus("plain") == -25308)
        // The unlock rewrites the rest, constrained ones included (their envelope is carried over unopened).
        try keychain.unlock(passcode: testPasscode)
        #expect(try versions(keychain).values.allSatisfy { $0 == 3 })
        for account in ["plain", "twin-a", "twin-b", "after-first", "always"] {
            #expect(keychain.secretText(account) == "secret-\(account)")
        }
        try keychain.authenticators.biometry.script(.match)
        #expect(keychain.secretText("biometry") == "secret-biometry")
        let web = try keychain.copyMatching(
            ItemQuery(itemClass: .internetPassword, attributes: [.server: .string("example.com")], returns: .data))
        #expect(web.first?.data?.bytes == Array("secret-web".utf8))
    }

    /// A change of passcode on a home of that release renews its class keys: every item still opens (the
    /// constrained one with its factor), the keybag becomes format 2, and the release's own keybag put back opens
    /// none of the items of classes A and C with the old passcode.
    @Test func aPasscodeChangeRenewsTheClassKeysOfTheRelease() throws {
        let home = try formatTwoHome()
        let original = try Data(contentsOf: home.appendingPathComponent("keybag"))
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(Secret(bytes("5678")), current: testPasscode)
        #expect(try KeybagDocument.decode(Array(Data(contentsOf: home.appendingPathComponent("keybag")))).format == 3)
        keychain.simulateRestart()
        try keychain.unlock(passcode: Secret(bytes("5678")))
        for account in ["plain", "twin-a", "twin-b", "after-first", "always"] {
            #expect(keychain.secretText(account) == "secret-\(account)")
        }
        try keychain.authenticators.biometry.script(.match)
        #expect(keychain.secretText("biometry") == "secret-biometry")
        keychain.simulateRestart()
        keychain.close()

        try original.write(to: home.appendingPathComponent("keybag"))
        let replayed = try fastKDFKeychain(home: home)
        defer { replayed.simulateRestart() }
        try replayed.unlock(passcode: testPasscode)
        for account in ["plain", "twin-a", "twin-b", "after-first"] {
            #expect(replayed.readStatus(account) == -26275, "\(account)")
        }
        #expect(replayed.secretText("always") == "secret-always")
    }

    /// The committed home written at schema v3 (items-format-2, passcode 1234) takes step 4 at its open, and the
    /// rows v3 wrote still read: a new digest column is NULL in them and leaves the index binding their secret's
    /// seal authenticates as it was.
    @Test func aHomeOfSchemaThreeReadsItsItemsAfterTheAliasStep() throws {
        let home = try formatTwoHome()
        let before = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        #expect(try before.userVersion == 3)
        before.close()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        #expect(keychain.secretText("always") == "secret-always")
        try keychain.unlock(passcode: testPasscode)
        #expect(keychain.secretText("plain") == "secret-plain")
        #expect(try keychain.count(genericQuery([.alias: .string("none")])) == 0)
        keychain.close()
        let after = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { after.close() }
        #expect(try after.appliedMigrations()[4] == "v4 alias of passwords")
    }

    @Test func formatTwoRowsReadAndUpdateBeforeTheyAreRewritten() throws {
        let keychain = try fastKDFKeychain(home: try formatTwoHome())
        defer { keychain.simulateRestart() }
        // Unlocking through the protection state alone leaves the rows in format 2.
        try keychain.dataProtection.unlock(passcode: testPasscode.storage)
        #expect(try versions(keychain)["plain"] == 2)
        #expect(keychain.secretText("plain") == "secret-plain")
        #expect(try keychain.attributes(accountQuery("plain"))[.label] == .string("L-plain"))
        try keychain.update(accountQuery("plain"), with: ItemChanges(attributes: [.label: .string("relabelled")]))
        #expect(try versions(keychain)["plain"] == 3)
        #expect(try versions(keychain)["twin-a"] == 2)
        #expect(keychain.secretText("plain") == "secret-plain")
        try keychain.update(accountQuery("twin-a"), with: ItemChanges(data: Array("changed".utf8)))
        #expect(try versions(keychain)["twin-a"] == 3)
        #expect(keychain.secretText("twin-a") == "changed")
        try keychain.authenticators.biometry.script(.match)
        #expect(keychain.secretText("biometry") == "secret-biometry")
    }

    @Test(arguments: [false, true])
    func swappedDigestsOfFormatTwoRowsNeverReturnTheOtherSecret(upgradeFirst: Bool) throws {
        let home = try formatTwoHome()
        if upgradeFirst {
            let keychain = try fastKDFKeychain(home: home)
            try keychain.unlock(passcode: testPasscode)
            #expect(try versions(keychain)["twin-a"] == 3)
            try keychain.lock()
            keychain.simulateRestart()
        }
        // Swap the account digests of twin-a and twin-b (both class A, so a locked open leaves them as they are).
        let database = try Database(path: home.appendingPathComponent(Keychain.databaseFileName).path)
        let rows = try database.statement("SELECT rowid, d_acct, f_acct FROM genp ORDER BY rowid").rows()
        let update = try database.statement("UPDATE genp SET d_acct = ?, f_acct = ? WHERE rowid = ?")
        try update.run([rows[2][1], rows[2][2], rows[1][0]])
        try update.run([rows[1][1], rows[1][2], rows[2][0]])
        database.close()

        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.dataProtection.unlock(passcode: testPasscode.storage)
        #expect(try versions(keychain)["twin-a"] == (upgradeFirst ? 3 : 2))
        for account in ["twin-a", "twin-b"] {
            #expect(keychain.readStatus(account) == -26275)
            #expect(keychain.secretText(account) == nil)
        }
        // The rewrite to format 3 computes the digests again from the authenticated attributes: each row then
        // answers for itself. A row already in format 3 is not rewritten, and stays damaged.
        try keychain.unlock(passcode: testPasscode)
        for account in ["twin-a", "twin-b"] {
            if upgradeFirst {
                #expect(keychain.readStatus(account) == -26275)
            } else {
                #expect(keychain.secretText(account) == "secret-\(account)")
            }
        }
        #expect(keychain.secretText("plain") == "secret-plain")
    }

    @Test func backupOfMixedFormatsRestoresEveryItem() throws {
        let source = try fastKDFKeychain(home: try formatTwoHome())
        defer { source.simulateRestart() }
        try source.dataProtection.unlock(passcode: testPasscode.storage)
        try source.update(accountQuery("plain"), with: ItemChanges(attributes: [.label: .string("new")]))
        #expect(try versions(source)["plain"] == 3)
        #expect(try versions(source)["twin-b"] == 2)
        let file = temporaryHome().appendingPathExtension("backup")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let password = Secret(Array("backup".utf8))
        let summary = try source.backup(to: file, password: password)
        #expect(summary.itemCount == 6 && summary.excludedCount == 1)
        let target = try fastKDFKeychain()
        defer { target.simulateRestart() }
        #expect(try target.restore(from: file, password: password).itemCount == 6)
        for account in ["plain", "twin-a", "twin-b", "after-first", "always"] {
            #expect(target.secretText(account) == "secret-\(account)")
        }
        #expect(try versions(target)["twin-b"] == 3)
    }
}
