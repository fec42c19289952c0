import Foundation
import KeychainCrypto
import KeychainStore
import Testing

@testable import KeychainCore

/// A passcode set, change or removal makes the keys of classes A and C (but WhenPasscodeSetThisDeviceOnly) anew
/// and rewraps every item key under them: a copy of the keybag from before opens none of the items, and every item
/// still opens with the keybag of today.
@Suite struct ClassKeyRenewalTests {
    private static let renewed: [Accessibility] = [
        .whenUnlocked, .whenUnlockedThisDeviceOnly, .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly,
    ]

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
        for protection in Self.renewed {
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
        #expect(try !keychain.dataProtection.itemKeysAwaitRewrap)
        #expect(try document(home).retired(.whenUnlocked).count == 3)
        #expect(try document(home).format == 2)
    }

    /// Every row of a renewed class is under its class's current key once the change returns.
    @Test func theChangeRewrapsEveryItemKey() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: true)
        defer { keychain.simulateRestart() }
        let before = try wrappedKeys(keychain)
        try keychain.setPasscode(Secret(bytes("5678")), current: testPasscode)
        let after = try wrappedKeys(keychain)
        for protection in Self.renewed {
            let current = try keychain.classKey(protection)
            let wrapped = try #require(after[protection.rawValue])
            #expect(wrapped != before[protection.rawValue], "\(protection.rawValue)")
            #expect(throws: Never.self, "\(protection.rawValue)") { try current.unwrap(wrapped) }
        }
        // WhenPasscodeSetThisDeviceOnly keeps its key (devicePasscode constraints are bound to it), and so do the
        // Always classes.
        for protection in [Accessibility.whenPasscodeSetThisDeviceOnly, .always, .alwaysThisDeviceOnly] {
            #expect(after[protection.rawValue] == before[protection.rawValue], "\(protection.rawValue)")
        }
    }

    /// The wrapped item key of each token, by account.
    private func wrappedKeys(_ keychain: Keychain) throws -> [String: [UInt8]] {
        var keys: [String: [UInt8]] = [:]
        for protection in Accessibility.allCases {
            let digest = try keychain.digester.digest(.account, .string(protection.rawValue))
            let rows = try keychain.withStore { store in
                try store.select(
                    from: "genp", where: RowFilter(digestsAnyOf: [(column: "d_acct", values: [digest])]), reading: [])
            }
            keys[protection.rawValue] = rows.first?.wrappedKey
        }
        return keys
    }

    private func setWrappedKey(_ wrapped: [UInt8], of account: String, in keychain: Keychain) throws {
        let digest = try keychain.digester.digest(.account, .string(account))
        try keychain.withStore { store in
            let rows = try store.select(
                from: "genp", where: RowFilter(digestsAnyOf: [(column: "d_acct", values: [digest])]), reading: [])
            let row = try #require(rows.first)
            try store.replaceWrappedKey(wrapped, rowid: row.rowid, in: "genp")
        }
    }

    /// A write sealed just before a change and committed just after it is under the key before: it still reads,
    /// and the next change carries it forward.
    @Test func aRowUnderThePreviousKeyReadsAndTheNextChangeRewrapsIt() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: true)
        defer { keychain.simulateRestart() }
        let account = Accessibility.whenUnlocked.rawValue
        let sealedBefore = try #require(try wrappedKeys(keychain)[account])
        let second = Secret(bytes("5678"))
        try keychain.setPasscode(second, current: testPasscode)
        try setWrappedKey(sealedBefore, of: account, in: keychain)
        #expect(keychain.secretText(account) == account)
        try keychain.setPasscode(Secret(bytes("9012")), current: second)
        let current = try keychain.classKey(.whenUnlocked)
        #expect(throws: Never.self) { try current.unwrap(try #require(try wrappedKeys(keychain)[account])) }
        #expect(keychain.secretText(account) == account)
    }

    /// A row under a key older than the one before today's is a row put back from further back: it reads as damaged.
    @Test func aRowTwoGenerationsOldIsDamaged() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: true)
        defer { keychain.simulateRestart() }
        let account = Accessibility.afterFirstUnlock.rawValue
        let old = try #require(try wrappedKeys(keychain)[account])
        let second = Secret(bytes("5678"))
        try keychain.setPasscode(second, current: testPasscode)
        try keychain.setPasscode(Secret(bytes("9012")), current: second)
        try setWrappedKey(old, of: account, in: keychain)
        #expect(keychain.readStatus(account) == SecurityStatus.decode)
    }

    /// A change whose rewrap did not happen (a crash after the keybag was saved): the rows read under the key
    /// before, and the next unlock rewraps them and clears the keybag's mark.
    @Test func theNextUnlockFinishesARewrapCutShort() throws {
        let home = temporaryHome()
        let keychain = try populated(home: home, passcode: true)
        defer { keychain.simulateRestart() }
        let second = Secret(bytes("5678"))
        try keychain.dataProtection.setPasscode(second.storage, current: testPasscode.storage)
        #expect(try keychain.dataProtection.itemKeysAwaitRewrap)
        for protection in Accessibility.allCases {
            #expect(keychain.secretText(protection.rawValue) == protection.rawValue, "\(protection.rawValue)")
        }
        keychain.simulateRestart()
        try keychain.unlock(passcode: second)
        #expect(try !keychain.dataProtection.itemKeysAwaitRewrap)
        let keys = try wrappedKeys(keychain)
        for protection in Self.renewed {
            let current = try keychain.classKey(protection)
            #expect(throws: Never.self) { try current.unwrap(try #require(keys[protection.rawValue])) }
        }
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
        document.format = 3
        #expect(throws: KeychainError.notAvailable) { try KeybagDocument.decode(try document.encoded()) }
        document.format = 2
        #expect(throws: Never.self) { try KeybagDocument.decode(try document.encoded()) }
    }
}
