import Foundation
import KeychainCrypto
import Testing

@testable import KeychainCore

/// After a lock, class A stays available for the grace period, then goes; class C stays.
@Suite struct GracePeriodTests {
    @Test func classAGoesWhenTheGracePeriodEnds() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        try keychain.addToken("background", .afterFirstUnlock)
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(2)
        #expect(try keychain.info().gracePeriod == 2)

        let locked = Date()
        try keychain.lock()
        #expect(try keychain.lockState == .locked)
        #expect(keychain.readStatus("token") == SecurityStatus.success)

        // Kernel key timeouts count whole seconds: the key goes between 1 and 2 s after the lock.
        var last = SecurityStatus.success
        while last == SecurityStatus.success, Date().timeIntervalSince(locked) < 3.5 {
            Thread.sleep(forTimeInterval: 0.1)
            last = keychain.readStatus("token")
        }
        #expect(last == SecurityStatus.interactionNotAllowed)
        #expect(Date().timeIntervalSince(locked) >= 0.9)
        #expect(keychain.readStatus("background") == SecurityStatus.success)
    }

    @Test func anUnlockWithinTheGracePeriodKeepsClassA() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(1)
        try keychain.lock()
        try keychain.unlock(passcode: testPasscode)
        Thread.sleep(forTimeInterval: 1.2)
        #expect(try keychain.lockState == .unlocked)
        #expect(keychain.readStatus("token") == SecurityStatus.success)
    }

    @Test func lockingAgainDoesNotExtendTheGracePeriod() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(2)
        let locked = Date()
        try keychain.lock()
        Thread.sleep(forTimeInterval: 1)
        try keychain.lock()  // e.g. a second `security lock-keychain`
        Thread.sleep(forTimeInterval: max(0, 2.1 - Date().timeIntervalSince(locked)))
        #expect(keychain.readStatus("token") == SecurityStatus.interactionNotAllowed)
    }

    @Test func theProcessMemoryStoreHonoursTheGracePeriodToo() throws {
        let store = ProcessKeyStore()
        try store.put([
            .whenUnlocked: SecureBytes(Array(repeating: 1, count: 32)),
            .afterFirstUnlock: SecureBytes(Array(repeating: 2, count: 32)),
        ])
        try store.lock(classAExpiresAfter: 1)
        #expect(try store.get(.whenUnlocked) != nil)
        Thread.sleep(forTimeInterval: 1.05)
        #expect(try store.get(.whenUnlocked) == nil)
        #expect(try store.get(.afterFirstUnlock) != nil)
        #expect(store.isLocked)
    }

    /// keychaind's store: the class A keys leave memory (wiped) when the grace period ends, whether or not a
    /// request for class A comes; a lock-state query asks only for class C.
    @Test func theProcessMemoryStoreWipesClassAWhenTheGracePeriodEndsUnasked() throws {
        let keychain = try fastKDFKeychain { $0.classKeysInProcessMemory = true }
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(1)
        let store = try #require(keychain.dataProtection.store as? ProcessKeyStore)
        #expect(store.heldClasses.isSuperset(of: Accessibility.classA))
        try keychain.lock()
        Thread.sleep(forTimeInterval: 1.3)
        #expect(try keychain.lockState == .locked)
        #expect(store.heldClasses.isDisjoint(with: Accessibility.classA))
        #expect(store.heldClasses.contains(.afterFirstUnlock))
    }

    /// A second lock after the grace period was shortened takes the shorter deadline: a lock never extends
    /// the period, but it may end it sooner (`set-keychain-settings -t 0` then `lock-keychain` again).
    @Test func lockingAgainWithAShorterGracePeriodShortensIt() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(86_400)
        try keychain.lock()
        #expect(keychain.readStatus("token") == SecurityStatus.success)
        try keychain.setGracePeriod(0)
        try keychain.lock()
        #expect(keychain.readStatus("token") == SecurityStatus.interactionNotAllowed)
    }

    @Test func theProcessMemoryStoreShortensButNeverExtendsTheGracePeriod() throws {
        let store = ProcessKeyStore()
        let keys = [
            Accessibility.whenUnlocked: SecureBytes(Array(repeating: 1, count: 32)),
            .afterFirstUnlock: SecureBytes(Array(repeating: 2, count: 32)),
        ]
        try store.put(keys)
        try store.lock(classAExpiresAfter: 86_400)
        try store.lock(classAExpiresAfter: 0)
        #expect(try store.get(.whenUnlocked) == nil)
        #expect(try store.get(.afterFirstUnlock) != nil)

        try store.put(keys)
        try store.lock(classAExpiresAfter: 1)
        try store.lock(classAExpiresAfter: 86_400)  // never extends
        Thread.sleep(forTimeInterval: 1.05)
        #expect(try store.get(.whenUnlocked) == nil)
    }
}
