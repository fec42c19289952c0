import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// What another process changes in the home (the sensor's enrollment, the keybag) reaches a keychain that is
/// already open at its next call: it keeps the files it read under a watch (`WatchedFile`), never a copy it
/// trusts. A second `Keychain` on the same home plays the other process; each has its own watches and caches.
@Suite struct ChangesByAnotherProcessTests {
    private func reusedRead(_ keychain: Keychain, _ account: String, context: AuthenticationContext) -> Int32 {
        var query = accountQuery(account, returns: .data)
        query.authentication = ReadAuthentication(ui: .fail)
        return status { _ = try keychain.copyMatching(query, context: context) }
    }

    @Test func anEnrollmentChangeElsewhereEndsAReusedContextsReadsAtOnce() throws {
        let home = temporaryHome()
        let first = try fastKDFKeychain(home: home)
        defer { first.simulateRestart() }
        try first.setPasscode(testPasscode)
        try first.authenticators.biometry.enroll()
        try first.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.account: .string("current")],
                accessControl: AccessControlPolicy(accessibility: .whenUnlocked, flags: .biometryCurrentSet),
                data: Array("secret".utf8)))
        let context = AuthenticationContext()
        try first.authenticators.biometry.script(.match)
        try first.authenticators.evaluate(.biometrics, context: context)
        // The read caches the sensor's state; the other process then enrolls another finger.
        #expect(reusedRead(first, "current", context: context) == SecurityStatus.success)
        let second = try fastKDFKeychain(home: home)
        try second.authenticators.biometry.changeEnrollment()
        // The context's evaluation was of the old enrollment: it holds nothing now, and a prompt may not be shown.
        #expect(reusedRead(first, "current", context: context) == SecurityStatus.interactionNotAllowed)
    }

    @Test func aPasscodeSetElsewhereIsSeenByTheNextCall() throws {
        let home = temporaryHome()
        let first = try fastKDFKeychain(home: home)
        defer { first.simulateRestart() }
        // Without a passcode the passcode-only class cannot be added to, as on a device without one.
        #expect(status { try first.addToken("early", .whenPasscodeSetThisDeviceOnly) } == SecurityStatus.authFailed)
        let second = try fastKDFKeychain(home: home)
        try second.setPasscode(testPasscode)
        #expect(status { try first.addToken("late", .whenPasscodeSetThisDeviceOnly) } == SecurityStatus.success)
        #expect(first.secretText("late") == "late")
    }
}
