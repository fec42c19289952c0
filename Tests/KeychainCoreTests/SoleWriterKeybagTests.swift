import Foundation
import Testing

@testable import KeychainCore

/// A keychain opened as the only writer of its home (keychaind's state directory) keeps its keybag snapshot
/// without examining the file before each use: its own changes are seen at once, another opener's are not.
@Suite struct SoleWriterKeybagTests {
    private func keychain(home: URL, soleWriter: Bool) throws -> Keychain {
        try fastKDFKeychain(home: home) { configuration in
            configuration.classKeysInProcessMemory = true
            configuration.soleWriterOfHome = soleWriter
        }
    }

    @Test func aSoleWriterSeesItsOwnPasscodeLockAndUnlockAtOnce() throws {
        let keychain = try keychain(home: temporaryHome(), soleWriter: true)
        defer { keychain.close() }
        try keychain.addToken("token", .whenUnlocked)
        #expect(try keychain.lockState == .noPasscode)
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(0)
        #expect(try keychain.lockState == .unlocked)
        try keychain.lock()
        #expect(try keychain.lockState == .locked)
        #expect(keychain.readStatus("token") == SecurityStatus.interactionNotAllowed)
        try keychain.unlock(passcode: testPasscode)
        #expect(keychain.secretText("token") == "token")
        #expect(try keychain.lockState == .unlocked)
        #expect(try keychain.info().hasPasscode)
    }

    @Test func onlyAKeychainThatSharesItsHomeExaminesTheKeybagAgain() throws {
        let home = temporaryHome()
        let sole = try keychain(home: home, soleWriter: true)
        let shared = try keychain(home: home, soleWriter: false)
        let writer = try keychain(home: home, soleWriter: false)
        defer {
            for keychain in [sole, shared, writer] { keychain.close() }
        }
        #expect(try sole.lockState == .noPasscode)
        #expect(try shared.lockState == .noPasscode)
        try writer.setPasscode(testPasscode)
        // Another writer is what the setting rules out; the sole writer keeps what it knew.
        #expect(try shared.info().hasPasscode)
        #expect(try !sole.info().hasPasscode)
    }
}
