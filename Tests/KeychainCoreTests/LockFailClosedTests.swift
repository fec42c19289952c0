import Foundation
import KernelKeyring
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Settings are checked where they come in, and a lock fails closed: a value the kernel cannot count, or a keybag
/// holding one, never leaves class A readable behind a "locked" state.
@Suite struct LockFailClosedTests {
    /// Rewrites one field of the keybag file, as an older version or a damaged file would have it.
    private func tamperKeybag(_ home: URL, _ change: (inout [String: Any]) -> Void) throws {
        let url = home.appendingPathComponent(KeybagDocument.fileName)
        var document = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        change(&document)
        try JSONSerialization.data(withJSONObject: document).write(to: url, options: .atomic)
    }

    private func tamperPasscodeRecord(_ home: URL, _ field: String, _ value: Any) throws {
        try tamperKeybag(home) { document in
            var record = document["passcode"] as? [String: Any] ?? [:]
            record[field] = value
            document["passcode"] = record
        }
    }

    @Test func aGracePeriodOutsideZeroToOneDayIsRefused() throws {
        let keychain = try fastKDFKeychain()
        for seconds in [86_401, 1 << 32, Int.max, -1, Int.min] {
            var caught: KeychainError?
            do { try keychain.setGracePeriod(seconds) } catch let error as KeychainError { caught = error }
            #expect(caught?.status == SecurityStatus.param, "grace period \(seconds)")
            #expect(caught?.reason?.contains("86400") == true)
        }
        try keychain.setGracePeriod(86_400)
        #expect(try keychain.info().gracePeriod == 86_400)
    }

    @Test func aLockWithAStoredGracePeriodTheKernelCannotCountLocksAtOnce() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        try keychain.addToken("background", .afterFirstUnlock)
        try keychain.setPasscode(testPasscode)
        // What an older version stored before it checked the range.
        try tamperKeybag(home) { $0["gracePeriod"] = 1 << 32 }

        try keychain.lock()
        #expect(try keychain.lockState == .locked)
        #expect(keychain.readStatus("token") == SecurityStatus.interactionNotAllowed)
        #expect(keychain.readStatus("background") == SecurityStatus.success)
        // A second lock keeps it so, and an unlock and a valid setting work as before.
        try keychain.lock()
        #expect(keychain.readStatus("token") == SecurityStatus.interactionNotAllowed)
        try keychain.unlock(passcode: testPasscode)
        #expect(keychain.readStatus("token") == SecurityStatus.success)
        try keychain.setGracePeriod(0)
        try keychain.lock()
        #expect(keychain.readStatus("token") == SecurityStatus.interactionNotAllowed)
    }

    @Test func aKDFTargetThatIsNotAFiniteNumberOfSecondsIsRefusedAtOpen() {
        for target in [Double.nan, .infinity, -.infinity, -0.5, 1e9] {
            var configuration = KeychainConfiguration(home: temporaryHome(), identity: protectionTestIdentity)
            configuration.passcodeDerivationTarget = target
            let opened = status { _ = try Keychain(configuration: configuration) }
            #expect(opened == SecurityStatus.param, "target \(target)")
        }
    }

    /// Each case: a field of the passcode record and the JSON number a damaged or hostile file holds there.
    @Test(arguments: [
        ("notBefore", "1e300"), ("iterations", "0"), ("iterations", "-5"), ("iterations", "1099511627776"),
        ("failures", "9223372036854775807"), ("failures", "-1"), ("milliseconds", "-1"),
    ])
    func aPasscodeRecordOutOfRangeIsReportedAsDamaged(field: String, json: String) throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        try tamperPasscodeRecord(home, field, value)
        keychain.simulateRestart()
        #expect(status { try keychain.unlock(passcode: Secret(Array("9999".utf8))) } == SecurityStatus.notAvailable)
        #expect(status { try keychain.unlock(passcode: testPasscode) } == SecurityStatus.notAvailable)
        #expect(status { _ = try keychain.info() } == SecurityStatus.notAvailable)
    }

    /// The kernel keyring of `keychain`'s home.
    private func homeKeyring(_ keychain: Keychain) throws -> KernelKeyring {
        let namespace = try KeyringKeyStore.namespace(deviceKey: keychain.dataProtection.deviceKey)
        return try #require(KernelKeyring.user.keyring(named: KeyringKeyStore.keyringPrefix + namespace))
    }

    @Test(.enabled(if: kernelKeyringIsAvailable, "needs the kernel keyring"))
    func aLockRecordedBesideALiveClassAKeyIsCompletedByTheNextLock() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(5)
        // The state an interrupted lock of an older version left: recorded as locked, class A with no expiry.
        let ring = try homeKeyring(keychain)
        let state = Array("locked-until 0\n\(home.standardizedFileURL.path)".utf8)
        try state.withUnsafeBytes { _ = try ring.store("state", payload: $0) }
        #expect(try keychain.lockState == .locked)

        try keychain.lock()
        #expect(keychain.readStatus("token") == SecurityStatus.interactionNotAllowed)
    }

    @Test(.enabled(if: kernelKeyringIsAvailable, "needs the kernel keyring"))
    func aClassAKeyGoneWithoutARecordedLockReadsAsLocked() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        try keychain.addToken("background", .afterFirstUnlock)
        try keychain.setPasscode(testPasscode)
        // A lock cut short after it dropped class A and before it recorded anything.
        try homeKeyring(keychain).remove(KeyringKeyStore.Group.classA.rawValue)
        #expect(try keychain.lockState == .locked)
        #expect(keychain.readStatus("token") == SecurityStatus.interactionNotAllowed)
        #expect(keychain.readStatus("background") == SecurityStatus.success)
    }
}
