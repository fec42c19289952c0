import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Items whose every alternative needs the device passcode are bound to a key derived from the
/// WhenPasscodeSetThisDeviceOnly class key: when the passcode is removed they go with that class's items, in the
/// same purge; items another alternative still opens stay.
@Suite struct PasscodeBoundItemsTests {
    private func constrained(_ account: String, _ flags: AccessControlFlags) -> NewItem {
        NewItem(
            itemClass: .genericPassword, attributes: [.account: .string(account)],
            accessControl: AccessControlPolicy(accessibility: .whenUnlocked, flags: flags),
            data: Array("\(account)-secret".utf8))
    }

    /// The accounts of every generic password (attributes only: no authentication needed).
    private func accounts(_ keychain: Keychain) throws -> Set<String> {
        let results = try keychain.search(ItemQuery(itemClass: .genericPassword, limit: .all, returns: .attributes))
        return Set(
            results.results.compactMap { result in
                guard case .string(let account) = result.attributes?[.account] else { return nil }
                return account
            })
    }

    private func keychainWithBoundItems(home: URL = temporaryHome()) throws -> Keychain {
        let keychain = try fastKDFKeychain(home: home)
        try keychain.setPasscode(testPasscode)
        try keychain.authenticators.biometry.enroll()
        try keychain.add(constrained("passcode", .devicePasscode))
        try keychain.add(constrained("passcode-and-biometry", [.devicePasscode, .and, .biometryAny]))
        try keychain.add(constrained("biometry-or-passcode", [.biometryAny, .or, .devicePasscode]))
        try keychain.add(constrained("user-presence", .userPresence))
        try keychain.add(constrained("biometry", .biometryAny))
        try keychain.addToken("plain", .whenUnlocked)
        try keychain.addToken("akpu", .whenPasscodeSetThisDeviceOnly)
        return keychain
    }

    private let survivors: Set<String> = ["biometry-or-passcode", "user-presence", "biometry", "plain"]

    @Test func removingThePasscodeDeletesItemsOnlyItsKeyOpens() throws {
        let keychain = try keychainWithBoundItems()
        defer { keychain.simulateRestart() }
        let purged = try keychain.removePasscode(current: testPasscode)
        #expect(purged == 3)
        #expect(try accounts(keychain) == survivors)
        #expect(keychain.readStatus("plain") == 0)
    }

    /// The watch and an application password keep an item as biometry does; the passcode alone binds an item of
    /// another class or table just the same.
    @Test func otherFactorsClassesAndTablesAreJudgedAlike() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try keychain.authenticators.companion.pair()
        try keychain.add(constrained("watch-or-passcode", [.companion, .or, .devicePasscode]))
        let context = AuthenticationContext()
        context.setApplicationPassword(Array("pw".utf8))
        try keychain.add(constrained("application-password", .applicationPassword), context: context)
        var afterFirstUnlock = constrained("passcode-after-first-unlock", .devicePasscode)
        afterFirstUnlock.accessControl = AccessControlPolicy(accessibility: .afterFirstUnlock, flags: .devicePasscode)
        try keychain.add(afterFirstUnlock)
        try keychain.add(
            NewItem(
                itemClass: .internetPassword,
                attributes: [.account: .string("internet"), .server: .string("example.com")],
                accessControl: AccessControlPolicy(accessibility: .whenUnlocked, flags: .devicePasscode),
                data: Array("internet-secret".utf8)))
        #expect(try keychain.removePasscode(current: testPasscode) == 2)
        #expect(try accounts(keychain) == ["watch-or-passcode", "application-password"])
        let internet = #expect(throws: KeychainError.self) {
            try keychain.search(ItemQuery(itemClass: .internetPassword, limit: .all, returns: .attributes))
        }
        #expect(internet?.status == -25300)
    }

    /// A crash after the keybag lost its passcode but before the purge: the next open finishes it.
    @Test func theNextOpenFinishesAPurgeCutShort() throws {
        let home = temporaryHome()
        let keychain = try keychainWithBoundItems(home: home)
        try keychain.dataProtection.setPasscode(nil, current: testPasscode.storage)
        keychain.close()
        let reopened = try fastKDFKeychain(home: home)
        defer { reopened.simulateRestart() }
        #expect(try accounts(reopened) == survivors)
        // The purge is done: the keybag no longer asks for it.
        #expect(try !reopened.dataProtection.passcodeBoundItemsAwaitPurge)
    }

    /// An item left behind by a version that did not purge it says why it will never open, instead of asking for
    /// a passcode that is not set.
    @Test func anItemLeftBehindSaysItsPasscodeWasRemoved() throws {
        let home = temporaryHome()
        let keychain = try keychainWithBoundItems(home: home)
        try keychain.dataProtection.setPasscode(nil, current: testPasscode.storage)
        try keychain.dataProtection.finishPasscodeBoundPurge()  // as a keybag of an earlier version records none
        keychain.close()
        let reopened = try fastKDFKeychain(home: home)
        do {
            _ = try reopened.copyMatching(accountQuery("passcode", returns: .data))
            Issue.record("an item bound to a removed passcode was read")
        } catch let error as KeychainError {
            #expect(error.status == SecurityStatus.authFailed)
            #expect(error.reason?.contains("passcode was removed") == true, "\(error.reason ?? "")")
        }
    }
}
