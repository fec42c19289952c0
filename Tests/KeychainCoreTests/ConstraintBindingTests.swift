import Foundation
import KeychainStore
import Testing

@testable import KeychainCore

/// An access-control constraint only ever adds conditions: a constrained secret needs its class key (so the
/// passcode and the lock state) as well as its factors. Checked by an attacker holding a copy of every file of a
/// locked home, and on a home written by item format 1, which the first open that can migrates.
@Suite(.serialized) struct ConstraintBindingTests {

    /// A home with a passcode, enrolled biometry and a paired companion.
    private func preparedKeychain() throws -> Keychain {
        let keychain = try fastKDFKeychain()
        try keychain.setPasscode(testPasscode)
        try keychain.authenticators.biometry.enroll()
        try keychain.authenticators.companion.pair()
        return keychain
    }

    private func add(
        _ keychain: Keychain, _ account: String, _ accessibility: Accessibility, flags: AccessControlFlags = [],
        applicationPassword: String? = nil
    ) throws {
        var item = NewItem(
            itemClass: .genericPassword, attributes: [.account: .string(account)],
            data: Array("secret-\(account)".utf8))
        if flags.isEmpty {
            item.accessibility = accessibility
        } else {
            item.accessControl = AccessControlPolicy(accessibility: accessibility, flags: flags)
        }
        var context: AuthenticationContext?
        if let applicationPassword {
            context = AuthenticationContext()
            context?.setApplicationPassword(Array(applicationPassword.utf8))
        }
        try keychain.add(item, context: context)
    }

    @Test func lockedHomeGivesAnOfflineAttackerNothingButTheAlwaysClass() throws {
        let keychain = try preparedKeychain()
        defer { keychain.simulateRestart() }
        try add(keychain, "always", .always)
        try add(keychain, "plain-a", .whenUnlocked)
        try add(keychain, "plain-c", .afterFirstUnlock)
        let constrained: [(String, Accessibility, AccessControlFlags)] = [
            ("presence", .whenUnlocked, .userPresence),
            ("any", .whenUnlocked, .biometryAny),
            ("current", .whenUnlocked, .biometryCurrentSet),
            ("watch", .whenUnlocked, .companion),
            ("any-or-watch", .whenUnlocked, [.biometryAny, .or, .companion]),
            ("any-and-watch", .whenUnlocked, [.biometryAny, .and, .companion]),
            ("any-or-passcode", .whenUnlocked, [.biometryAny, .or, .devicePasscode]),
            ("akpu-any", .whenPasscodeSetThisDeviceOnly, .biometryAny),
            ("cku-watch", .afterFirstUnlockThisDeviceOnly, .companion),
            ("ck-presence", .afterFirstUnlock, .userPresence),
        ]
        for (account, accessibility, flags) in constrained {
            try add(keychain, account, accessibility, flags: flags)
        }
        try add(keychain, "app-password", .whenUnlocked, flags: .applicationPassword, applicationPassword: "pw")
        try keychain.lock()
        keychain.simulateRestart()

        var attacker = try OfflineAttacker(copyOf: keychain.configuration.home)
        // Even the right application password must not be testable without the class key.
        attacker.guessedApplicationPasswords = ["pw"]
        let opened = try attacker.openedAccounts()
        #expect(opened == ["always"], "\(opened)")
    }

    @Test func unlockedHomeStillOpensForTheAttackerOnlyWhatTheClassKeysOpen() throws {
        // Control: the attacker's code works. Without a passcode every class key is in the files, and so is every
        // item that is not bound to a factor the files lack.
        let keychain = try fastKDFKeychain()
        try keychain.authenticators.biometry.enroll()
        try add(keychain, "plain", .whenUnlocked)
        let attacker = try OfflineAttacker(copyOf: keychain.configuration.home)
        let opened = try attacker.openedAccounts()
        #expect(opened == ["plain"], "\(opened)")
    }

    // MARK: - Homes written by item format 1

    /// A copy of the committed home written by item format 1 (see its README).
    private func formatOneHome() throws -> URL { try copyOfCommittedHome("constrained-items-format-1") }

    private func versions(_ keychain: Keychain) throws -> [Int64] {
        try keychain.withStore { store in
            try store.select(from: "genp", where: RowFilter(), reading: []).map(\.version)
        }
    }

    @Test func formatOneHomeExposesItsConstrainedItems() throws {
        // What the migration is for: before it, the files alone open the biometry and companion items.
        let attacker = try OfflineAttacker(copyOf: try formatOneHome())
        #expect(try attacker.openedAccounts().count >= 3)
    }

    @Test func firstUnlockedUseMigratesFormatOneItemsAndTheyStillRead() throws {
        let home = try formatOneHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        // Locked (a fresh boot): nothing can be migrated yet, and nothing is lost.
        #expect(try versions(keychain).allSatisfy { $0 == 1 })
        try keychain.unlock(passcode: testPasscode)
        #expect(try versions(keychain).allSatisfy { $0 == ItemSealer.formatVersion })

        #expect(keychain.secretText("plain") == "secret-plain")
        try keychain.authenticators.biometry.script(.match)
        #expect(keychain.secretText("biometry-any") == "secret-biometry-any")
        try keychain.authenticators.biometry.script(.match)
        #expect(keychain.secretText("current-set") == "secret-current-set")
        let context = AuthenticationContext()
        context.setApplicationPassword(Array("pw".utf8))
        let query = accountQuery("app-password", returns: .data)
        #expect(
            try keychain.copyMatching(query, context: context).first?.data?.bytes
                == Array("secret-app-password".utf8))

        // An attribute-only update of a migrated constrained item still needs no authentication.
        var changes = ItemChanges()
        changes.attributes = [.label: .string("renamed")]
        try keychain.update(accountQuery("watch"), with: changes)

        try keychain.lock()
        keychain.simulateRestart()
        var attacker = try OfflineAttacker(copyOf: home)
        attacker.guessedApplicationPasswords = ["pw"]
        let opened = try attacker.openedAccounts()
        #expect(opened.isEmpty, "\(opened)")
    }

    @Test func formatOneRowsReadAndUpdateBeforeTheyAreRewritten() throws {
        // A row waits in format 1 when the rewrite could not run (a busy database); it must read and update as
        // before. Unlocking through the protection state alone leaves the rows unmigrated.
        let home = try formatOneHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.dataProtection.unlock(passcode: testPasscode.storage)
        #expect(try versions(keychain).allSatisfy { $0 == 1 })
        try keychain.authenticators.biometry.script(.match)
        #expect(keychain.secretText("biometry-any") == "secret-biometry-any")
        // An attribute-only update rewrites the row in format 2 and carries its envelope over without a prompt.
        try keychain.update(accountQuery("current-set"), with: ItemChanges(attributes: [.label: .string("L")]))
        try keychain.authenticators.biometry.script(.match)
        #expect(keychain.secretText("current-set") == "secret-current-set")
        #expect(try versions(keychain).filter { $0 == ItemSealer.formatVersion }.count == 1)
    }

    @Test(.enabled(if: kernelKeyringIsAvailable))
    func reopeningAnUnlockedFormatOneHomeMigratesAtOpen() throws {
        let home = try formatOneHome()
        let first = try fastKDFKeychain(home: home)
        defer { first.simulateRestart() }
        // Unlock through a keychain that is not asked to migrate: the class keys are shared with the next open.
        try first.dataProtection.unlock(passcode: testPasscode.storage)
        let second = try fastKDFKeychain(home: home)
        #expect(try versions(second).allSatisfy { $0 == ItemSealer.formatVersion })
        try second.authenticators.biometry.script(.match)
        #expect(second.secretText("any-or-watch") == "secret-any-or-watch")
    }

    @Test func applicationPasswordsAreStretchedLikeThePasscode() throws {
        let keychain = try preparedKeychain()
        defer { keychain.simulateRestart() }
        try add(keychain, "app-password", .whenUnlocked, flags: .applicationPassword, applicationPassword: "pw")
        let row = try #require(
            try keychain.withStore { store in
                try store.select(from: "genp", where: RowFilter(), reading: [.secret]).first
            })
        let schema = try keychain.schema(.genericPassword)
        let sealer = keychain.sealer(for: row, schema: schema, protection: .whenUnlocked)
        let itemKey = try sealer.itemKey(wrapped: row.wrappedKey, classKey: try keychain.classKey(.whenUnlocked))
        let column = try keychain.constrainedEnvelopeColumn(row.secret, sealer: sealer, itemKey: itemKey)
        let (envelope, _) = try ConstraintEnvelope.unframing(column)
        let passcodeIterations = try #require(try keychain.info().kdfIterations)
        // At least the passcode's rounds (more when this machine's tuning now gives more: ApplicationPasswordWorkTests).
        #expect((envelope.alternatives.first?.iterations ?? 0) >= passcodeIterations)
        // In the row itself the envelope is sealed: neither its salt nor its wrapped key can be read.
        #expect((try? ConstraintEnvelope.unframing(row.secret)) == nil)
    }
}
