import Foundation
import KeychainCrypto
import Testing

@testable import KeychainCore

/// The keychain's files alone open nothing of classes A and C: they need the device key and the passcode
/// together, and an unlocked class key lives only in the kernel keyring, never in a process that locked.
@Suite struct KeyMaterialTests {
    private static let classesAC: [Accessibility] = [
        .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly,
        .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly,
    ]

    /// A closed keychain with a passcode and one item of every class, named after the class.
    private func populatedHome() throws -> URL {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        try keychain.setPasscode(testPasscode)
        for protection in Accessibility.allCases { try keychain.addToken(protection.rawValue, protection) }
        keychain.close()
        return home
    }

    /// Copies the files of `home` to a new home, leaving out `excluded`.
    private func copy(_ home: URL, excluding excluded: Set<String> = []) throws -> URL {
        let copy = temporaryHome()
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: home.path) where !excluded.contains(name) {
            try FileManager.default.copyItem(
                at: home.appendingPathComponent(name), to: copy.appendingPathComponent(name))
        }
        return copy
    }

    private func keybag(_ home: URL) throws -> KeybagDocument {
        try KeybagDocument.decode(Array(Data(contentsOf: home.appendingPathComponent(KeybagDocument.fileName))))
    }

    private func deviceKey(_ home: URL) throws -> SecureBytes {
        SecureBytes(try Data(contentsOf: home.appendingPathComponent(DeviceKey.fileName)))
    }

    /// The passcode-derived wrapping key of `document` computed with `deviceKey`.
    private func passcodeKey(_ document: KeybagDocument, deviceKey: SecureBytes) throws -> SecureBytes {
        let record = try #require(document.passcode)
        let salt = try #require(Data(base64Encoded: record.salt))
        return try PasscodeKDF.derive(
            passcode: testPasscode.storage, salt: Array(salt), iterations: record.iterations,
            deviceKey: deviceKey)
    }

    @Test func filesWithoutTheDeviceKeyOpenNothingEvenWithThePasscode() throws {
        let home = try populatedHome()
        let original = try fastKDFKeychain(home: home)
        defer { original.simulateRestart() }
        let copy = try copy(home, excluding: [DeviceKey.fileName])

        // Opening the copy makes a new device key, under which the keybag opens nothing.
        #expect(throws: KeychainError.notAvailable) { try fastKDFKeychain(home: copy) }

        let document = try keybag(home)
        let stranger = SecureBytes(try SystemRandom.bytes(32))
        let guessed = try passcodeKey(document, deviceKey: stranger)
        for protection in Self.classesAC {
            let wrapped = try #require(document.wrapped(protection))
            #expect(throws: (any Error).self, "\(protection.rawValue)") { try AESKeyWrap.unwrap(wrapped, kek: guessed) }
        }
        // The same derivation with the real device key does open them: the device key is what was missing.
        let real = try passcodeKey(document, deviceKey: try deviceKey(home))
        #expect(throws: Never.self) { try AESKeyWrap.unwrap(try #require(document.wrapped(.whenUnlocked)), kek: real) }
    }

    @Test func filesWithTheDeviceKeyButNoPasscodeOpenNoClassAOrC() throws {
        let home = try populatedHome()
        let original = try fastKDFKeychain(home: home)
        defer { original.simulateRestart() }
        original.simulateRestart()
        let copy = try copy(home)
        let copied = try fastKDFKeychain(home: copy)
        defer { copied.simulateRestart() }

        #expect(try copied.lockState == .beforeFirstUnlock)
        for protection in Self.classesAC {
            #expect(
                copied.readStatus(protection.rawValue) == SecurityStatus.interactionNotAllowed,
                "\(protection.rawValue)")
        }
        // The deprecated Always classes need only the device key, by design.
        #expect(copied.readStatus("dk") == SecurityStatus.success)
        #expect(copied.readStatus("dku") == SecurityStatus.success)
        #expect(throws: KeychainError.authFailed) { try copied.unlock(passcode: Secret(Array("0000".utf8))) }

        // The device key alone unwraps the Always class keys and none of A and C.
        let document = try keybag(copy)
        let key = try deviceKey(copy)
        #expect(throws: Never.self) { try AESKeyWrap.unwrap(try #require(document.wrapped(.always)), kek: key) }
        for protection in Self.classesAC {
            let wrapped = try #require(document.wrapped(protection))
            #expect(throws: (any Error).self, "\(protection.rawValue)") { try AESKeyWrap.unwrap(wrapped, kek: key) }
        }
    }

    @Test func noClassAKeyStaysInTheKeyStoreAfterALock() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(0)
        let store = keychain.dataProtection.store
        for protection in Self.classesAC { #expect(try store.get(protection) != nil, "\(protection.rawValue)") }

        try keychain.lock()
        for protection in Accessibility.classA { #expect(try store.get(protection) == nil, "\(protection.rawValue)") }
        #expect(try store.get(.afterFirstUnlock) != nil)
        #expect(try store.get(.afterFirstUnlockThisDeviceOnly) != nil)

        keychain.simulateRestart()
        for protection in Accessibility.allCases { #expect(try store.get(protection) == nil, "\(protection.rawValue)") }
    }

    @Test func theProcessMemoryFallbackForgetsClassAOnLock() throws {
        let store = ProcessKeyStore()
        var keys: [Accessibility: SecureBytes] = [:]
        for protection in Self.classesAC { keys[protection] = SecureBytes(try SystemRandom.bytes(32)) }
        try store.put(keys)
        try store.lock(classAExpiresAfter: 0)
        for protection in Accessibility.classA { #expect(try store.get(protection) == nil) }
        #expect(try store.get(.afterFirstUnlock) != nil)
        store.clear()
        #expect(try store.get(.afterFirstUnlock) == nil)
        #expect(!store.isLocked)
    }
}
