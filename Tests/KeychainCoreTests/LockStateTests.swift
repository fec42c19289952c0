import Foundation
import Testing

@testable import KeychainCore

/// Passcode, lock states and protection classes, as on a device with a passcode.
@Suite(.serialized) struct LockStateTests {
    private let passcode = Secret(Array("1234".utf8))

    private func makeProtectedKeychain(home: URL = temporaryHome()) throws -> Keychain {
        var configuration = KeychainConfiguration(
            home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]))
        configuration.passcodeDerivationTarget = 0.002
        return try Keychain(configuration: configuration)
    }

    private func add(_ keychain: Keychain, _ account: String, _ protection: Accessibility) throws {
        try keychain.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.account: .string(account)],
                accessibility: protection, data: Array(account.utf8)))
    }

    private func read(_ keychain: Keychain, _ account: String) -> Int32 {
        do {
            _ = try keychain.copyMatching(
                ItemQuery(
                    itemClass: .genericPassword, attributes: [.account: .string(account)],
                    returns: .data))
            return 0
        } catch let error as KeychainError {
            return error.status
        } catch {
            return -1
        }
    }

    @Test func classesFollowTheLockState() throws {
        let keychain = try makeProtectedKeychain()
        defer { keychain.simulateRestart() }
        #expect(try keychain.lockState == .noPasscode)
        #expect(throws: KeychainError.authFailed) { try add(keychain, "akpu", .whenPasscodeSetThisDeviceOnly) }
        for protection in [Accessibility.whenUnlocked, .afterFirstUnlock, .always] {
            try add(keychain, protection.rawValue, protection)
        }
        try keychain.setPasscode(passcode)
        try keychain.setGracePeriod(0)
        #expect(try keychain.lockState == .unlocked)
        try add(keychain, "akpu", .whenPasscodeSetThisDeviceOnly)
        #expect(read(keychain, "ak") == 0)

        try keychain.lock()
        #expect(try keychain.lockState == .locked)
        #expect(read(keychain, "ak") == SecurityStatus.interactionNotAllowed)
        #expect(read(keychain, "akpu") == SecurityStatus.interactionNotAllowed)
        #expect(read(keychain, "ck") == 0)
        #expect(read(keychain, "dk") == 0)
        #expect(throws: KeychainError.interactionNotAllowed) { try add(keychain, "ak2", .whenUnlocked) }

        keychain.simulateRestart()
        #expect(try keychain.lockState == .beforeFirstUnlock)
        #expect(read(keychain, "ck") == SecurityStatus.interactionNotAllowed)
        #expect(read(keychain, "dk") == 0)

        #expect(throws: KeychainError.authFailed) { try keychain.unlock(passcode: Secret(Array("0000".utf8))) }
        try keychain.unlock(passcode: passcode)
        #expect(try keychain.lockState == .unlocked)
        #expect(read(keychain, "ak") == 0 && read(keychain, "ck") == 0 && read(keychain, "akpu") == 0)

        try keychain.removePasscode(current: passcode)
        #expect(try keychain.lockState == .noPasscode)
        #expect(read(keychain, "akpu") == SecurityStatus.itemNotFound)
        #expect(read(keychain, "ak") == 0 && read(keychain, "ck") == 0)
    }

    @Test func lockIsSeenByAnotherKeychainInstanceAtOnce() throws {
        let home = temporaryHome()
        let first = try makeProtectedKeychain(home: home)
        defer { first.simulateRestart() }
        try add(first, "token", .whenUnlocked)
        try first.setPasscode(passcode)
        try first.setGracePeriod(0)
        let second = try makeProtectedKeychain(home: home)
        #expect(read(second, "token") == 0)
        try first.lock()
        #expect(read(second, "token") == SecurityStatus.interactionNotAllowed)
        try second.unlock(passcode: passcode)
        #expect(read(first, "token") == 0)
    }

    @Test func wrongPasscodesAreRateLimitedAcrossRestarts() throws {
        let home = temporaryHome()
        let keychain = try makeProtectedKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(passcode)
        for _ in 0..<5 {
            #expect(throws: KeychainError.authFailed) { try keychain.unlock(passcode: Secret(Array("9999".utf8))) }
        }
        let reopened = try makeProtectedKeychain(home: home)
        #expect(try reopened.info().failedAttempts == 5)
        #expect(try reopened.info().retryAfterSeconds > 50)
        // Even the right passcode waits out the delay.
        #expect(throws: KeychainError.authFailed) { try reopened.unlock(passcode: passcode) }
    }

    /// The owner's attempts (keychaind's owner rights) are counted apart: wrong passcodes that any app may feed do
    /// not hold the owner back, the owner's own wrong ones hold back the owner's, and a right one clears both.
    @Test func wrongPasscodesOfAnyoneDoNotHoldBackTheOwnersAttempts() throws {
        let home = temporaryHome()
        let keychain = try makeProtectedKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(passcode)
        let wrong = Secret(Array("9999".utf8))
        for _ in 0..<5 { #expect(throws: KeychainError.authFailed) { try keychain.unlock(passcode: wrong) } }
        #expect(throws: KeychainError.authFailed) { try keychain.unlock(passcode: passcode) }
        // Nor do they hold back the owner's change of the passcode, whose check counts with the owner's too.
        #expect(try keychain.info(attempter: .owner).retryAfterSeconds == 0)
        #expect(try keychain.info().retryAfterSeconds > 0)
        try keychain.setPasscode(passcode, current: passcode, attempter: .owner)
        try keychain.unlock(passcode: passcode, attempter: .owner)
        #expect(try keychain.info().failedAttempts == 0)
        try keychain.unlock(passcode: passcode)
        for _ in 0..<5 {
            #expect(throws: KeychainError.authFailed) { try keychain.unlock(passcode: wrong, attempter: .owner) }
        }
        let reopened = try makeProtectedKeychain(home: home)
        #expect(throws: KeychainError.authFailed) { try reopened.unlock(passcode: passcode, attempter: .owner) }
        try reopened.unlock(passcode: passcode)
        try reopened.unlock(passcode: passcode, attempter: .owner)
    }

    @Test func queriesSpanningClassesReturnWhatIsReadable() throws {
        let keychain = try makeProtectedKeychain()
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(passcode)
        try keychain.setGracePeriod(0)
        try add(keychain, "a", .whenUnlocked)
        try add(keychain, "c", .afterFirstUnlock)
        try keychain.lock()
        let report = try keychain.search(ItemQuery(itemClass: .genericPassword, limit: .one, returns: .attributes))
        #expect(report.results.count == 1)
        #expect(report.results[0].attributes?[.account] == .string("c"))
        #expect(report.leftOut == 1)
        #expect(report.note?.contains("locked") == true)
    }
}
