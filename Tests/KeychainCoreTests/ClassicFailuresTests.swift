import Foundation
import Testing

@testable import KeychainCore

/// The production failures of issue 4, item 6: the background read of a WhenUnlocked token while locked, the
/// error handler that deletes on -25308, and the migration to AfterFirstUnlock, safe and unsafe.
@Suite struct ClassicFailuresTests {
    /// A keychain with a passcode, grace 0, unlocked.
    private func lockableKeychain() throws -> Keychain {
        let keychain = try fastKDFKeychain()
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(0)
        return keychain
    }

    @Test func backgroundReadFailsForWhenUnlockedAndWorksForAfterFirstUnlock() throws {
        let keychain = try lockableKeychain()
        defer { keychain.simulateRestart() }
        try keychain.addToken("token-ak", .whenUnlocked)
        try keychain.addToken("token-ck", .afterFirstUnlock)
        try keychain.lock()  // the user locks the phone; a background refresh starts
        #expect(keychain.readStatus("token-ak") == SecurityStatus.interactionNotAllowed)
        #expect(keychain.secretText("token-ck") == "token-ck")
    }

    @Test func anErrorHandlerThatDeletesOnInteractionNotAllowedLosesAGoodToken() throws {
        let keychain = try lockableKeychain()
        defer { keychain.simulateRestart() }
        try keychain.addToken("careful", .whenUnlocked)
        try keychain.addToken("careless", .whenUnlocked)
        try keychain.lock()

        // Careless: any failure is taken for a corrupt token. A delete needs no class key, so it succeeds.
        if keychain.readStatus("careless") != SecurityStatus.success {
            try keychain.delete(accountQuery("careless"))
        }
        // Careful: -25308 means "try again after the unlock"; only itemNotFound means there is no token.
        let status = keychain.readStatus("careful")
        #expect(status == SecurityStatus.interactionNotAllowed)
        if status == SecurityStatus.itemNotFound { try keychain.delete(accountQuery("careful")) }

        try keychain.unlock(passcode: testPasscode)
        #expect(keychain.secretText("careful") == "careful")
        #expect(keychain.readStatus("careless") == SecurityStatus.itemNotFound)
    }

    @Test func oneUpdateMovesAnItemToAfterFirstUnlockKeepingItsIdentity() throws {
        let keychain = try lockableKeychain()
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        let before = try #require(
            try keychain.copyMatching(accountQuery("token", returns: [.attributes, .persistentReference])).first)
        let reference = try #require(before.persistentReference)

        // The one-time migration: SecItemUpdate of kSecAttrAccessible, run while unlocked.
        try keychain.update(accountQuery("token"), with: ItemChanges(accessibility: .afterFirstUnlock))

        try keychain.lock()
        let after = try #require(
            try keychain.copyMatching(
                ItemQuery(
                    returns: [.data, .attributes, .persistentReference], persistentReference: reference)
            ).first)
        #expect(after.data.map { String(decoding: $0.bytes, as: UTF8.self) } == "token")
        #expect(after.persistentReference == reference)
        #expect(after.attributes?[.accessible] == .string("ck"))
        #expect(after.attributes?[.creationDate] == before.attributes?[.creationDate])
        #expect(try keychain.count(ItemQuery(itemClass: .genericPassword, accessibility: .whenUnlocked)) == 0)
    }

    @Test func aMigrationWhileLockedFailsAndChangesNothing() throws {
        let keychain = try lockableKeychain()
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        try keychain.addToken("other", .whenUnlocked)
        try keychain.lock()
        let query = ItemQuery(itemClass: .genericPassword, limit: .all)
        #expect(throws: KeychainError.interactionNotAllowed) {
            try keychain.update(query, with: ItemChanges(accessibility: .afterFirstUnlock))
        }
        try keychain.unlock(passcode: testPasscode)
        #expect(try keychain.count(ItemQuery(itemClass: .genericPassword, accessibility: .whenUnlocked)) == 2)
        #expect(keychain.secretText("token") == "token")
    }

    @Test func readDeleteReAddLeavesAMomentWhenTheTokenExistsNowhere() throws {
        let home = temporaryHome()
        let app = try fastKDFKeychain(home: home)
        try app.addToken("token", .whenUnlocked)
        // The common advice: read the token, delete it, add it again with the new class.
        let token = app.secretText("token")
        try app.delete(accountQuery("token"))
        // The app is killed here, before its re-add: what the next launch finds.
        app.close()
        let relaunched = try fastKDFKeychain(home: home)
        #expect(token == "token")
        #expect(relaunched.readStatus("token") == SecurityStatus.itemNotFound)
    }
}
