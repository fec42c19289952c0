import Foundation
import Testing

@testable import KeychainCore

/// The application password joins every alternative of an access control, whatever the combinator. An item's key
/// envelope records the alternatives it was made with, so items stored while `.or` made the password an
/// alternative of its own open as they were stored (see the committed home's README).
@Suite(.serialized) struct ApplicationPasswordRequirementTests {
    private func passwordContext() -> AuthenticationContext {
        let context = AuthenticationContext()
        context.setApplicationPassword(Array("pw".utf8))
        return context
    }

    private func secretText(_ keychain: Keychain, _ account: String, context: AuthenticationContext?) -> String? {
        var query = accountQuery(account, returns: .data)
        query.authentication = ReadAuthentication(ui: .fail)
        let results = try? keychain.copyMatching(query, context: context)
        return results?.first?.data.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    @Test func everyAlternativeTakesThePassword() {
        let biometryAndPassword: [ConstraintFactor] = [.applicationPassword, .biometryAny]
        let passcodeAndPassword: [ConstraintFactor] = [.applicationPassword, .devicePasscode]
        let or = AccessControlPolicy(accessibility: .whenUnlocked, flags: [.biometryAny, .or, .applicationPassword])
        #expect(or.alternatives == [biometryAndPassword])
        let three = AccessControlPolicy(
            accessibility: .whenUnlocked, flags: [.biometryAny, .or, .devicePasscode, .applicationPassword])
        #expect(three.alternatives == [biometryAndPassword, passcodeAndPassword])
        let presence = AccessControlPolicy(accessibility: .whenUnlocked, flags: [.userPresence, .applicationPassword])
        #expect(presence.alternatives == [biometryAndPassword, passcodeAndPassword])
        let alone = AccessControlPolicy(accessibility: .whenUnlocked, flags: [.or, .applicationPassword])
        #expect(alone.alternatives == [[.applicationPassword]])
    }

    @Test func itemsStoredWithThePasswordAsAnAlternativeOpenAsStored() throws {
        let keychain = try fastKDFKeychain(home: try copyOfCommittedHome("application-password-or-before-requirement"))
        defer { keychain.simulateRestart() }
        try keychain.unlock(passcode: testPasscode)
        #expect(secretText(keychain, "any-or-pw", context: passwordContext()) == "secret-any-or-pw")
        #expect(secretText(keychain, "passcode-or-pw", context: passwordContext()) == "secret-passcode-or-pw")
        try keychain.authenticators.biometry.script(.match)
        let biometry = AuthenticationContext()
        try keychain.authenticators.evaluate(.biometrics, context: biometry)
        #expect(secretText(keychain, "any-or-pw", context: biometry) == "secret-any-or-pw")
        // Stored with both in one alternative: the password alone never opened it.
        #expect(secretText(keychain, "any-and-pw", context: passwordContext()) == nil)
        biometry.setApplicationPassword(Array("pw".utf8))
        #expect(secretText(keychain, "any-and-pw", context: biometry) == "secret-any-and-pw")

        // A new secret is wrapped for the alternatives of today: the password alone no longer opens it.
        var update = accountQuery("passcode-or-pw")
        update.authentication = ReadAuthentication(ui: .fail)
        try keychain.update(update, with: ItemChanges(data: Array("new".utf8)), context: passwordContext())
        #expect(secretText(keychain, "passcode-or-pw", context: passwordContext()) == nil)
        keychain.authenticators.passcodePrompt.enter("1234")
        let both = passwordContext()
        try keychain.authenticators.evaluate(.devicePasscode, context: both)
        #expect(secretText(keychain, "passcode-or-pw", context: both) == "new")
    }
}
