import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// The lock state is device-wide: another process sees a lock, an unlock and a restart at once, because the
/// unlocked class keys live in the kernel's user keyring and no process keeps a copy.
@Suite struct CrossProcessLockTests {
    /// Runs `KeychainTestChild read` on `home` for `account` and returns the status it prints.
    private func childRead(_ home: URL, _ account: String) throws -> Int32 {
        let run = try TestChild.read(home, account)
        let text = run.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard run.status == 0, let code = Int32(text) else {
            throw ChildError("child read \(account) exited \(run.status), printed \"\(text)\"")
        }
        return code
    }

    @Test(.enabled(if: kernelKeyringIsAvailable, "needs the kernel keyring"))
    func childSeesLockUnlockAndRestartAtOnce() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.addToken("token", .whenUnlocked)
        try keychain.addToken("background", .afterFirstUnlock)
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(0)
        #expect(try childRead(home, "token") == SecurityStatus.success)

        try keychain.lock()
        #expect(try childRead(home, "token") == SecurityStatus.interactionNotAllowed)
        #expect(try childRead(home, "background") == SecurityStatus.success)

        try keychain.unlock(passcode: testPasscode)
        #expect(try childRead(home, "token") == SecurityStatus.success)

        keychain.simulateRestart()
        #expect(try childRead(home, "background") == SecurityStatus.interactionNotAllowed)
    }
}
