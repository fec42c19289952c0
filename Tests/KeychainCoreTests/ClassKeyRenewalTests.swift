import Foundation
import KeychainCrypto
import KeychainStore
import Synchronization
import Testing

@testable import KeychainCore

/// A passcode set, change or removal makes the keys of classes A and C anew and reseals every item of theirs under
/// a new item key: a copy of the keybag (and of the database) from before opens none of today's items, and every
/// item still opens with the keybag of today.
@Suite struct ClassKeyRenewalTests {
    /// The classes that exist without a passcode and are renewed when one is set.
    private static let renewed: [Accessibility] = [
        .whenUnlocked, .whenUnlockedThisDeviceOnly, .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly,
    ]
    /// The classes a change renews: WhenPasscodeSetThisDeviceOnly too.
    private static let renewedByAChange = renewed + [.whenPasscodeSetThisDeviceOnly]

    private func keybagBytes(_ home: URL) throws -> Data {
        try Data(contentsOf: home.appendingPathComponent(KeybagDocument.fileName))
    }

    private func putBack(_ keybag: Data, into home: URL) throws {
        try keybag.write(to: home.appendingPathComponent(KeybagDocument.fileName))
    }

    private func document(_ home: URL) throws -> KeybagDocument {
        try KeybagDocument.decode(Array(try keybagBytes(home)))
    }

    /// A keychain holding one token of every class, named after the class.
    private func populated(home: URL, passcode: Bool) throws -> Keychain {
        let keychain = try fastKDFKeychain(home: home)
        if passcode { try keychain.setPasscode(testPasscode) }
        for protection in Accessibility.allCases where passcode || protection != .whenPasscodeSetThisDeviceOnly {
            try keychain.addToken(protection.rawValue, protection)
        }
        return keychain
    }

    @Test func aKeybagFromBeforeThePasscodeWasSetOpensNoItemOfARenewedClass() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: false)
        let beforePasscode = try keybagBytes(home)
        try keychain.setPasscode(testPasscode)
        try keychain.addToken("added-later", .whenUnlocked)
        keychain.close()
        defer { try? fastKDFKeychain(home: home).simulateRestart() }

        try putBack(beforePasscode, into: home)
        let replayed = try fastKDFKeychain(home: home)
        #expect(try !replayed.dataProtection.hasPasscode)
        for protection in Self.renewed {
            #expect(replayed.readStatus(protection.rawValue) == SecurityStatus.decode, "\(protection.rawValue)")
        }
        #expect(replayed.readStatus("added-later") == SecurityStatus.decode)
        // The Always classes need no passcode on a device either: their keys are not renewed.
        #expect(replayed.secretText(Accessibility.always.rawValue) == Accessibility.always.rawValue)
    }

    @Test func aKeybagFromBeforeAChangeOpensNoItemWithTheOldPasscode() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: true)
        let beforeChange = try keybagBytes(home)
        let newPasscode = Secret(bytes("5678"))
        try keychain.setPasscode(newPasscode, current: testPasscode)
        keychain.simulateRestart()  // the attacker's machine holds no unlocked key
        keychain.close()

        try putBack(beforeChange, into: home)
        let replayed = try fastKDFKeychain(home: home)
        defer { replayed.simulateRestart() }
        try replayed.unlock(passcode: testPasscode)
        for protection in Self.renewedByAChange {
            #expect(replayed.readStatus(protection.rawValue) == SecurityStatus.decode, "\(protection.rawValue)")
        }
    }

    @Test func everyItemOpensAfterASetAChangeAndARemoval() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: false)
        defer { keychain.simulateRestart() }
        let second = Secret(bytes("5678"))
        try keychain.setPasscode(testPasscode)
        try keychain.addToken(Accessibility.whenPasscodeSetThisDeviceOnly.rawValue, .whenPasscodeSetThisDeviceOnly)
        try keychain.setPasscode(second, current: testPasscode)
        for protection in Accessibility.allCases {
            #expect(keychain.secretText(protection.rawValue) == protection.rawValue, "\(protection.rawValue)")
        }
        // After a restart too: the keys the new passcode unwraps are the ones the items are under.
        keychain.simulateRestart()
        try keychain.unlock(passcode: second)
        for protection in Accessibility.allCases {
            #expect(keychain.secretText(protection.rawValue) == protection.rawValue, "\(protection.rawValue)")
        }
        try keychain.removePasscode(current: second)
        for protection in Accessibility.allCases where protection != .whenPasscodeSetThisDeviceOnly {
            #expect(keychain.secretText(protection.rawValue) == protection.rawValue, "\(protection.rawValue)")
        }
        #expect(try keychain.dataProtection.unfinishedRenewal == nil)
        #expect(try document(home).retired(.whenUnlocked).count == 3)
        #expect(try document(home).format == 2)
    }

    /// Every row of a renewed class has a new item key, under its class's current key, once the change returns.
    @Test func theChangeResealsEveryItemUnderANewItemKey() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: true)
        defer { keychain.simulateRestart() }
        let before = try rows(keychain)
        let oldItemKeys = try itemKeys(keychain, of: before)
        try keychain.setPasscode(Secret(bytes("5678")), current: testPasscode)
        let after = try rows(keychain)
        for protection in Self.renewedByAChange {
            let row = try #require(after[protection.rawValue])
            let itemKey = try keychain.classKey(protection).unwrap(row.wrappedKey)
            #expect(itemKey.bytes != oldItemKeys[protection.rawValue]?.bytes, "\(protection.rawValue)")
        }
        // The Always classes keep their keys: their rows are as they were.
        for protection in [Accessibility.always, .alwaysThisDeviceOnly] {
            #expect(after[protection.rawValue]?.wrappedKey == before[protection.rawValue]?.wrappedKey)
            #expect(after[protection.rawValue]?.secret == before[protection.rawValue]?.secret)
        }
    }

    /// A constrained item's envelope is carried over unopened under its new item key: its factor still opens it.
    @Test func aConstrainedItemOpensWithItsFactorAfterAChange() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try keychain.authenticators.biometry.enroll()
        for protection in [Accessibility.whenUnlocked, .afterFirstUnlockThisDeviceOnly] {
            try keychain.add(
                NewItem(
                    itemClass: .genericPassword, attributes: [.account: .string(protection.rawValue)],
                    accessControl: AccessControlPolicy(accessibility: protection, flags: .biometryAny),
                    data: Array(protection.rawValue.utf8)))
        }
        try keychain.setPasscode(Secret(bytes("5678")), current: testPasscode)
        for protection in [Accessibility.whenUnlocked, .afterFirstUnlockThisDeviceOnly] {
            try keychain.authenticators.biometry.script(.match)
            #expect(keychain.secretText(protection.rawValue) == protection.rawValue, "\(protection.rawValue)")
        }
    }

    /// Whoever kept a copy of the home from before a change (keybag and database) and knows the passcode of then
    /// holds that time's item keys: none opens today's row of the same item, whose secret has changed since;
    /// also when the row was still under a retired key when it was updated (an update gives it a new item key).
    @Test(arguments: [false, true])
    func itemKeysFromBeforeAChangeOpenNoUpdatedRow(rowUnderRetiredKey: Bool) throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: true)
        defer { keychain.simulateRestart() }
        let account = Accessibility.whenUnlocked.rawValue
        let oldRow = try #require(try rows(keychain)[account])
        let oldItemKey = try #require(try itemKeys(keychain, of: [account: oldRow])[account])
        try keychain.setPasscode(Secret(bytes("5678")), current: testPasscode)
        if rowUnderRetiredKey { try putBack(oldRow, in: keychain) }
        try keychain.update(accountQuery(account), with: ItemChanges(data: Array("changed".utf8)))
        let today = try #require(try rows(keychain)[account])
        let schema = try keychain.schema(.genericPassword)
        let sealer = keychain.sealer(for: today, schema: schema, protection: .whenUnlocked)
        #expect(throws: KeychainError.decode) { try sealer.openSecret(today.secret, itemKey: oldItemKey) }
        #expect(throws: KeychainError.decode) { try sealer.openAttributes(today.metadata, itemKey: oldItemKey) }
        #expect(keychain.secretText(account) == "changed")
    }

    /// The row of each token, by account.
    private func rows(_ keychain: Keychain) throws -> [String: StoredRow] {
        var found: [String: StoredRow] = [:]
        for protection in Accessibility.allCases {
            let digest = try keychain.digester.digest(.account, .string(protection.rawValue))
            let rows = try keychain.withStore { store in
                try store.select(
                    from: "genp", where: RowFilter(digestsAnyOf: [(column: "d_acct", values: [digest])]),
                    reading: [.metadata, .secret])
            }
            found[protection.rawValue] = rows.first
        }
        return found
    }

    /// The item key of each row, opened as a read does.
    private func itemKeys(_ keychain: Keychain, of rows: [String: StoredRow]) throws -> [String: SecureBytes] {
        let schema = try keychain.schema(.genericPassword)
        var keys: [String: SecureBytes] = [:]
        for (account, row) in rows {
            guard let protection = Accessibility(rawValue: row.protection) else { continue }
            let sealer = keychain.sealer(for: row, schema: schema, protection: protection)
            keys[account] = try keychain.itemKey(wrapped: row.wrappedKey, sealer: sealer, protection: protection)
        }
        return keys
    }

    /// Writes `row` back as it was (a write sealed before a change and committed after it looks the same).
    private func putBack(_ row: StoredRow, in keychain: Keychain) throws {
        try keychain.withStore { store in
            try store.database.statement("UPDATE genp SET wrappedkey = ?, meta = ?, secret = ? WHERE rowid = ?").run([
                .blob(row.wrappedKey), .blob(row.metadata), .blob(row.secret), .integer(row.rowid),
            ])
        }
    }

    /// A write sealed before two changes and committed after them is under a retired key: it still reads, and the
    /// next change reseals it under the current one.
    @Test func aRowUnderARetiredKeyReadsAndTheNextChangeResealsIt() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: true)
        defer { keychain.simulateRestart() }
        let account = Accessibility.afterFirstUnlock.rawValue
        let sealedBefore = try #require(try rows(keychain)[account])
        let (second, third) = (Secret(bytes("5678")), Secret(bytes("9012")))
        try keychain.setPasscode(second, current: testPasscode)
        try keychain.setPasscode(third, current: second)
        try putBack(sealedBefore, in: keychain)
        #expect(keychain.secretText(account) == account)
        try keychain.setPasscode(Secret(bytes("3456")), current: third)
        let current = try keychain.classKey(.afterFirstUnlock)
        #expect(throws: Never.self) { try current.unwrap(try #require(try rows(keychain)[account]).wrappedKey) }
        #expect(keychain.secretText(account) == account)
    }

    /// A change whose reseal did not happen (a crash after the keybag was saved): the rows read under the retired
    /// keys, and the next unlock reseals them and clears the keybag's mark.
    @Test func theNextUnlockFinishesAResealCutShort() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: true)
        defer { keychain.simulateRestart() }
        let second = Secret(bytes("5678"))
        try keychain.dataProtection.setPasscode(second.storage, current: testPasscode.storage)
        #expect(try keychain.dataProtection.unfinishedRenewal != nil)
        for protection in Accessibility.allCases {
            #expect(keychain.secretText(protection.rawValue) == protection.rawValue, "\(protection.rawValue)")
        }
        keychain.simulateRestart()
        try keychain.unlock(passcode: second)
        #expect(try keychain.dataProtection.unfinishedRenewal == nil)
        let rows = try rows(keychain)
        for protection in Self.renewed {
            let current = try keychain.classKey(protection)
            #expect(throws: Never.self) { try current.unwrap(try #require(rows[protection.rawValue]).wrappedKey) }
        }
    }

    /// A process that keeps its unlocked keys in its own memory (no kernel keyring) while another changes the
    /// passcode holds keys that open nothing renewed: it is asked to unlock again rather than reading rows as
    /// damaged or sealing new items under a retired key.
    @Test func aProcessHoldingKeysFromBeforeAChangeMustUnlockAgain() throws {
        let home = temporaryHome()
        let holder = try fastKDFKeychain(home: home) { $0.classKeysInProcessMemory = true }
        try holder.setPasscode(testPasscode)
        try holder.addToken("token", .whenUnlocked)
        let changer = try fastKDFKeychain(home: home) { $0.classKeysInProcessMemory = true }
        let second = Secret(bytes("5678"))
        try changer.setPasscode(second, current: testPasscode)
        #expect(holder.readStatus("token") == SecurityStatus.interactionNotAllowed)
        #expect(
            keychainStatus { try holder.addToken("late", .whenUnlocked) } == SecurityStatus.interactionNotAllowed)
        try holder.unlock(passcode: second)
        #expect(holder.secretText("token") == "token")
    }

    /// WhenPasscodeSetThisDeviceOnly keeps its key across a change but gets a new one when the passcode is
    /// removed and set again: a process still holding the destroyed key must not seal items under it.
    @Test func aProcessHoldingADestroyedPasscodeClassKeyMustUnlockAgain() throws {
        let home = temporaryHome()
        let holder = try fastKDFKeychain(home: home) { $0.classKeysInProcessMemory = true }
        try holder.setPasscode(testPasscode)
        let changer = try fastKDFKeychain(home: home) { $0.classKeysInProcessMemory = true }
        try changer.removePasscode(current: testPasscode)
        try changer.setPasscode(testPasscode)
        let passcodeOnly = Accessibility.whenPasscodeSetThisDeviceOnly
        #expect(
            keychainStatus { try holder.addToken("late", passcodeOnly) } == SecurityStatus.interactionNotAllowed)
        let bound = NewItem(
            itemClass: .genericPassword, attributes: [.account: .string("bound")],
            accessControl: AccessControlPolicy(accessibility: .afterFirstUnlock, flags: .devicePasscode),
            data: Array("bound".utf8))
        #expect(keychainStatus { try holder.add(bound) } == SecurityStatus.interactionNotAllowed)
        try holder.unlock(passcode: testPasscode)
        try holder.addToken("late", passcodeOnly)
        #expect(changer.secretText("late") == "late")
    }

    /// An add sealed just before a change and written just after it is sealed again under the keys of now:
    /// under the old ones an older copy of the keybag would open it, and for `akpu` (a removal and a new
    /// passcode between the two) nothing would.
    @Test(arguments: [Accessibility.whenUnlocked, .whenPasscodeSetThisDeviceOnly])
    func anAddSealedBeforeAChangeIsSealedAgain(protection: Accessibility) throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try expectSealedAgain(protection, in: keychain) {
            try keychain.removePasscode(current: testPasscode)
            try keychain.setPasscode(testPasscode)
        }
    }

    /// The same without a passcode, when a set and then a removal come between the seal and the write: no passcode
    /// before or after, but other class keys, and the keybag of before (which needs no passcode) opens the keys the
    /// add was sealed under.
    @Test func anAddSealedBeforeASetAndARemovalIsSealedAgain() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try expectSealedAgain(.whenUnlocked, in: keychain) {
            try keychain.setPasscode(testPasscode)
            try keychain.removePasscode(current: testPasscode)
        }
    }

    /// Adds an item of `protection` with `changes` (another process's, say) between its seal and its write, and
    /// expects it sealed twice and written under the class key of now.
    private func expectSealedAgain(
        _ protection: Accessibility, in keychain: Keychain, changes: () throws -> Void
    ) throws {
        let item = NewItem(
            itemClass: .genericPassword, attributes: [.account: .string("raced")], accessibility: protection,
            data: Array("raced".utf8))
        var seals = 0
        let written = try keychain.sealingAgainAfterAPasscodeChange {
            seals += 1
            let prepared = try keychain.prepare(item, caller: keychain.configuration.identity, context: nil)
            if seals == 1 { try changes() }
            return prepared
        } write: { prepared in
            try keychain.writeSection { store in
                try keychain.checkSealedUnderCurrentPasscode(prepared)
                _ = try store.insert(prepared.row, into: "genp")
            }
        }
        #expect(seals == 2)
        #expect(throws: Never.self) { try keychain.classKey(protection).unwrap(written.row.wrappedKey) }
        #expect(keychain.secretText("raced") == "raced")
    }

    /// A keybag of an earlier version has no check values; the first unlock adds them.
    @Test func theFirstUnlockAddsCheckValuesToAnOlderKeybag() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try editKeybag(in: home) { $0["keyChecks"] = nil }
        #expect(try document(home).keyChecks == nil)
        keychain.simulateRestart()
        try keychain.unlock(passcode: testPasscode)
        #expect(try document(home).keyChecks?.count == 5)
    }

    /// The rows as they were before the reseal leave the write-ahead log, where a copy of the home would find them.
    @Test func theChangeEmptiesTheWriteAheadLog() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: true)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(Secret(bytes("5678")), current: testPasscode)
        let wal = home.appendingPathComponent(Keychain.databaseFileName + "-wal")
        let size = try FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? Int
        #expect(size == 0)
    }

    /// A Secure Enclave key's authorization lives in the app's copy of the key, which no rewrap reaches: it opens
    /// under the class key of its time, however many changes ago.
    @Test func anEnclaveKeyAuthorizationOpensAfterChanges() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        let policy = AccessControlPolicy(accessibility: .whenUnlockedThisDeviceOnly, flags: [])
        let authorization = SecureBytes(Array(repeating: 7, count: 32))
        let binding = Array("key".utf8)
        let sealed = try keychain.sealEnclaveKeyAuthorization(
            authorization, policy: policy, binding: binding, context: nil)
        var passcode = testPasscode
        for next in ["5678", "9012", "3456"] {
            try keychain.setPasscode(Secret(bytes(next)), current: passcode)
            passcode = Secret(bytes(next))
        }
        let opened = try keychain.openEnclaveKeyAuthorization(
            sealed, policy: policy, binding: binding, context: nil, reason: nil)
        #expect(opened.withUnsafeBytes { Array($0) } == Array(repeating: 7, count: 32))
    }

    @Test func aKeybagOfAnUnknownFormatIsRefused() throws {
        var document = KeybagDocument(classes: [:])
        document.format = 4
        #expect(throws: KeychainError.notAvailable) { try KeybagDocument.decode(try document.encoded()) }
        document.format = 3
        #expect(throws: Never.self) { try KeybagDocument.decode(try document.encoded()) }
    }

    // MARK: - WhenPasscodeSetThisDeviceOnly and devicePasscode constraints

    /// An item that only the device passcode opens, of class `protection`.
    private func passcodeConstrained(_ account: String, _ protection: Accessibility) -> NewItem {
        NewItem(
            itemClass: .genericPassword, attributes: [.account: .string(account)],
            accessControl: AccessControlPolicy(accessibility: protection, flags: .devicePasscode),
            data: Array(account.utf8))
    }

    /// The secret of `account`, authenticating with `passcode` as the device passcode.
    private func secretText(_ account: String, in keychain: Keychain, passcode: Secret) throws -> String? {
        let context = AuthenticationContext()
        keychain.authenticators.passcodePrompt.enter(String(decoding: passcode.bytes, as: UTF8.self))
        try keychain.authenticators.evaluate(.devicePasscode, context: context)
        let results = try keychain.copyMatching(accountQuery(account, returns: .data), context: context)
        return results.first?.data.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// A change renews `akpu` too: the keybag of before, with the passcode of before, opens neither its items nor
    /// the devicePasscode items of any class, whether written before the change or after it. With the keybag of
    /// today and the new passcode every one opens: the constraint key stays the one of the passcode's set.
    @Test func aKeybagFromBeforeAChangeOpensNoPasscodeClassOrPasscodeConstrainedItem() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        try keychain.setPasscode(testPasscode)
        try keychain.addToken("akpu", .whenPasscodeSetThisDeviceOnly)
        try keychain.add(passcodeConstrained("akpu-passcode", .whenPasscodeSetThisDeviceOnly))
        try keychain.add(passcodeConstrained("ak-passcode", .whenUnlocked))
        let beforeChange = try keybagBytes(home)
        let newPasscode = Secret(bytes("5678"))
        try keychain.setPasscode(newPasscode, current: testPasscode)
        try keychain.addToken("akpu-later", .whenPasscodeSetThisDeviceOnly)
        try keychain.add(passcodeConstrained("akpu-passcode-later", .whenPasscodeSetThisDeviceOnly))
        #expect(try document(home).format == 3)
        #expect(try document(home).retired(.whenPasscodeSetThisDeviceOnly).count == 1)

        keychain.simulateRestart()
        try keychain.unlock(passcode: newPasscode)
        #expect(keychain.secretText("akpu") == "akpu")
        #expect(keychain.secretText("akpu-later") == "akpu-later")
        for account in ["akpu-passcode", "ak-passcode", "akpu-passcode-later"] {
            #expect(try secretText(account, in: keychain, passcode: newPasscode) == account, "\(account)")
        }
        keychain.simulateRestart()
        keychain.close()

        try putBack(beforeChange, into: home)
        let replayed = try fastKDFKeychain(home: home)
        defer { replayed.simulateRestart() }
        try replayed.unlock(passcode: testPasscode)
        for account in ["akpu", "akpu-later", "akpu-passcode", "ak-passcode", "akpu-passcode-later"] {
            #expect(replayed.readStatus(account) == SecurityStatus.decode, "\(account)")
        }
    }

    /// A removal destroys `akpu` with its retired keys and the constraint key's root: the keybag keeps nothing of
    /// them, and falls back to the format that holds what is left.
    @Test func aRemovalLeavesNothingOfThePasscodeClassInTheKeybag() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try keychain.add(passcodeConstrained("akpu-passcode", .whenPasscodeSetThisDeviceOnly))
        try keychain.setPasscode(Secret(bytes("5678")), current: testPasscode)
        #expect(try keychain.removePasscode(current: Secret(bytes("5678"))) == 1)
        let document = try document(home)
        #expect(document.wrapped(.whenPasscodeSetThisDeviceOnly) == nil)
        #expect(document.retired(.whenPasscodeSetThisDeviceOnly).isEmpty)
        #expect(document.passcodeConstraintRoot == nil)
        #expect(document.format == 2)
        #expect(try keychain.dataProtection.unfinishedRenewal == nil)
    }

    /// The committed home written at keybag format 2 (passcode-class-keybag-format-2, passcode 1234): a change
    /// renews its `akpu` key, and every item opens with the new passcode, the devicePasscode items included (their
    /// constraints are bound to the key of the release's set); its own keybag, put back, opens none of the
    /// passcode class's items or the devicePasscode items with the old passcode.
    @Test func aChangeRenewsThePasscodeClassOfAHomeOfKeybagFormatTwo() throws {
        let home = try copyOfCommittedHome("passcode-class-keybag-format-2")
        let original = try keybagBytes(home)
        #expect(try document(home).format == 2)
        let keychain = try fastKDFKeychain(home: home)
        let newPasscode = Secret(bytes("5678"))
        try keychain.setPasscode(newPasscode, current: testPasscode)
        #expect(try document(home).format == 3)
        keychain.simulateRestart()
        try keychain.unlock(passcode: newPasscode)
        for account in ["plain", "passcode-class"] {
            #expect(keychain.secretText(account) == "secret-\(account)", "\(account)")
        }
        for account in ["passcode", "passcode-class-passcode", "biometry-or-passcode"] {
            #expect(try secretText(account, in: keychain, passcode: newPasscode) == "secret-\(account)", "\(account)")
        }
        keychain.simulateRestart()
        keychain.close()

        try putBack(original, into: home)
        let replayed = try fastKDFKeychain(home: home)
        defer { replayed.simulateRestart() }
        try replayed.unlock(passcode: testPasscode)
        for account in ["plain", "passcode-class", "passcode", "passcode-class-passcode", "biometry-or-passcode"] {
            #expect(replayed.readStatus(account) == SecurityStatus.decode, "\(account)")
        }
    }

    /// A damaged root of the constraint key (a disk error, or a writer of the keybag) stops a change, which must
    /// carry it over, but not a removal, which destroys it with `akpu`.
    @Test func aDamagedConstraintRootStopsAChangeButNotARemoval() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        let second = Secret(bytes("5678"))
        try keychain.setPasscode(testPasscode)
        try keychain.setPasscode(second, current: testPasscode)
        try editKeybag(in: home) { $0["passcodeConstraintRoot"] = Data(repeating: 7, count: 40).base64EncodedString() }
        try keychain.unlock(passcode: second)
        #expect(
            keychainStatus { try keychain.setPasscode(testPasscode, current: second) } == SecurityStatus.notAvailable)
        #expect(keychainStatus { try keychain.removePasscode(current: second) } == 0)
        #expect(try !keychain.dataProtection.hasPasscode)
        #expect(try document(home).passcodeConstraintRoot == nil)
    }

    /// The constraint key's root is opened from the keybag its `akpu` key was found current in. A process whose
    /// stored key is older than the keybag it read waits for the other process's change to end; if that one has
    /// changed the passcode once more meanwhile, the key it then finds belongs to that later keybag, whose root it
    /// must use (the root of the keybag read first does not open under it: "damaged").
    @Test func theConstraintKeyComesFromTheKeybagItsKeyIsCurrentIn() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        let first = Secret(bytes("1111"))
        let second = Secret(bytes("2222"))
        let third = Secret(bytes("3333"))
        try keychain.setPasscode(first)
        try keychain.setPasscode(second, current: first)
        let expected = try keychain.dataProtection.passcodeConstraintKey().bytes
        let store = keychain.dataProtection.store
        func storedKeys(_ store: any UnlockedKeyStore) throws -> [Accessibility: SecureBytes] {
            var keys: [Accessibility: SecureBytes] = [:]
            for protection in Accessibility.allCases where KeybagDocument.isPasscodeProtected(protection) {
                keys[protection] = try store.get(protection)
            }
            return keys
        }
        let keysOfNow = try storedKeys(store)

        // Another process, on a copy of the home: two changes, keeping each keybag.
        let otherHome = temporaryHome()
        try FileManager.default.createDirectory(at: otherHome, withIntermediateDirectories: true)
        for file in ["device.key", KeybagDocument.fileName] {
            try FileManager.default.copyItem(
                at: home.appendingPathComponent(file), to: otherHome.appendingPathComponent(file))
        }
        let other = try fastKDFKeychain(home: otherHome) { $0.classKeysInProcessMemory = true }
        try other.setPasscode(third, current: second)
        let afterOneChange = try keybagBytes(otherHome)
        try other.setPasscode(first, current: third)
        let afterTwoChanges = try keybagBytes(otherHome)
        let keysAfterTwoChanges = try storedKeys(other.dataProtection.store)
        other.close()

        // The first change is saved here, its keys not stored yet: this process holds the keys of before.
        try store.put(keysOfNow)
        try putBack(afterOneChange, into: home)
        let outcome = Mutex<String>("")
        let reader = Thread {
            do {
                let key = try keychain.dataProtection.passcodeConstraintKey()
                outcome.withLock { $0 = key.bytes == expected ? "the key" : "another key" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }
        try SecretFile.withExclusiveLock(home.appendingPathComponent("keybag.lock")) {
            reader.start()
            Thread.sleep(forTimeInterval: 0.3)  // the reader finds its key stale and waits for this lock
            try putBack(afterTwoChanges, into: home)
            try store.put(keysAfterTwoChanges)
        }
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(outcome.withLock { $0 } == "the key")
    }
}
