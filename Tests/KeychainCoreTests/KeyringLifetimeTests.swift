import Foundation
import KeychainCrypto
import Testing

@testable import KeychainCore

/// Unlocked class keys are kept per keychain home and go when the home goes: when its passcode is removed, on a
/// restart, and when the home was deleted (found at the next open of any keychain of the user).
@Suite struct KeyringLifetimeTests {
    /// The keyring namespace of `home`: derived from its device key, it names the home's keys in the kernel.
    private func namespace(_ home: URL) throws -> String {
        let deviceKey = try #require(try SecretFile.read(home.appendingPathComponent(DeviceKey.fileName)))
        let namespace = try KeyDerivation.hkdfSHA256(
            key: SecureBytes(deviceKey), salt: Array("keychain".utf8), info: Array("keyring namespace v1".utf8),
            count: 8)
        return namespace.bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The kernel keys this process can see whose description names `namespace`.
    private func keys(naming namespace: String) throws -> [String] {
        // Read to the end: Foundation's String(contentsOfFile:) stops after the first 4 KiB of a /proc file, whose
        // size reads as 0, and a machine holding many keys lists this home's past them.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/keys"))
        defer { try? handle.close() }
        let keys = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        return keys.split(separator: "\n").map(String.init).filter { $0.contains("keychain.\(namespace)") }
    }

    /// Polls for up to ten seconds: the kernel collects invalidated keys a moment later, in deferred work that a
    /// machine busy with a parallel test run can hold back for seconds. It returns as soon as they are gone.
    private func eventuallyNoKeys(naming home: URL) throws -> [String] {
        try eventuallyNoKeys(naming: try namespace(home))
    }

    private func eventuallyNoKeys(naming namespace: String) throws -> [String] {
        var left = try keys(naming: namespace)
        let deadline = Date().addingTimeInterval(10)
        while !left.isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            left = try keys(naming: namespace)
        }
        return left
    }

    @Test(.enabled(if: kernelKeyringIsAvailable, "needs the kernel keyring"))
    func aDeletedHomesKeysAreDroppedAtTheNextOpen() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        try keychain.setPasscode(testPasscode)
        try keychain.lock()
        let deleted = try namespace(home)
        #expect(try !keys(naming: deleted).isEmpty)
        keychain.close()
        try FileManager.default.removeItem(at: home)

        _ = try fastKDFKeychain()
        #expect(try eventuallyNoKeys(naming: deleted).isEmpty)
    }

    @Test(.enabled(if: kernelKeyringIsAvailable, "needs the kernel keyring"))
    func removingThePasscodeOrARestartDropsEveryKeyOfTheHome() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        try keychain.setPasscode(testPasscode)
        try keychain.removePasscode(current: testPasscode)
        #expect(try eventuallyNoKeys(naming: home).isEmpty)

        try keychain.setPasscode(testPasscode)
        try keychain.lock()
        keychain.simulateRestart()
        #expect(try eventuallyNoKeys(naming: home).isEmpty)
    }

    @Test(.enabled(if: kernelKeyringIsAvailable, "needs the kernel keyring"))
    func anotherHomesKeysSurviveTheSweep() throws {
        let kept = temporaryHome()
        let keychain = try fastKDFKeychain(home: kept)
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        try keychain.setPasscode(testPasscode)
        _ = try fastKDFKeychain()
        #expect(keychain.readStatus("token") == SecurityStatus.success)
        #expect(try keychain.lockState == .unlocked)
    }

    /// A removal cut short after the keybag lost its passcode and before the keyring was dropped: the next open
    /// finds class keys (the destroyed WhenPasscodeSetThisDeviceOnly key among them) recorded as unlocked for a
    /// home without a passcode, and drops them.
    @Test(.enabled(if: kernelKeyringIsAvailable, "needs the kernel keyring"))
    func anOpenDropsKeysLeftForAHomeWithoutAPasscode() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        try keychain.setPasscode(testPasscode)
        let store = keychain.dataProtection.store
        var held: [Accessibility: SecureBytes] = [:]
        for protection in Accessibility.allCases {
            if let key = try store.get(protection) { held[protection] = key }
        }
        #expect(held[.whenPasscodeSetThisDeviceOnly] != nil)
        try keychain.dataProtection.setPasscode(nil, current: testPasscode.storage)
        try store.put(held)  // the keyring as the cut-short removal left it
        keychain.close()

        let reopened = try fastKDFKeychain(home: home)
        #expect(try reopened.lockState == .noPasscode)
        #expect(try eventuallyNoKeys(naming: home).isEmpty)
    }
}
