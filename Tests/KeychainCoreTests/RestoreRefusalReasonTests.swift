import Foundation
import KeychainCrypto
import Testing

@testable import KeychainCore

/// Each item a restore refuses is refused for its own reason: an item with access control or of a token is not
/// "of a class that never leaves its device", and a locked target is not an app reading an item it must keep.
@Suite struct RestoreRefusalReasonTests {
    private let password = Secret(Array("pw".utf8))

    private func entry(_ extra: [AttributeKey: AttributeValue], protection: Accessibility = .afterFirstUnlock)
        -> BackupEntry
    {
        var attributes: [AttributeKey: AttributeValue] = [
            .account: .string("a"), .service: .string("s"), .accessGroup: .string("TEAM1.com.example.app"),
            .synchronizable: .bool(false), .creationDate: .date(Date()), .modificationDate: .date(Date()),
        ]
        attributes.merge(extra) { $1 }
        return BackupEntry(
            itemClass: .genericPassword, uuid: Array(repeating: 7, count: 16), protection: protection,
            attributes: attributes, secret: SecureBytes(Array("secret".utf8)))
    }

    private func restoreError(_ entry: BackupEntry, into keychain: Keychain? = nil) throws -> KeychainError? {
        let file = try BackupArchive.seal(
            BackupContents(entries: [entry]), password: password.storage, iterations: 1000)
        do {
            _ = try (keychain ?? makeKeychain()).restore(archive: file, password: password)
        } catch let error as KeychainError {
            return error
        }
        return nil
    }

    @Test func anItemWithAccessControlIsNamedAsSuch() throws {
        let error = try restoreError(entry([AttributeKey("accc"): .data([1, 2])]))
        #expect(error?.status == SecurityStatus.decode)
        #expect(error?.reason?.contains("an item with access control (accc)") == true, "\(String(describing: error))")
        #expect(error?.reason?.contains("class ck") == false)
    }

    @Test func aTokensItemIsNamedAsSuch() throws {
        let error = try restoreError(entry([.tokenID: .string("com.apple.setoken")]))
        #expect(error?.status == SecurityStatus.decode)
        #expect(error?.reason?.contains("an item of a token (tkid)") == true, "\(String(describing: error))")
    }

    @Test func aThisDeviceOnlyItemNamesItsProtectionClass() throws {
        let error = try restoreError(entry([:], protection: .whenUnlockedThisDeviceOnly))
        #expect(error?.status == SecurityStatus.decode)
        #expect(error?.reason?.contains("protection class aku, which never leaves") == true)
    }

    @Test func aLockedTargetSaysToUnlockWithoutTheAppsAdvice() throws {
        let target = try makeKeychain()
        defer { target.simulateRestart() }
        try target.setPasscode(Secret(Array("1234".utf8)))
        try target.setGracePeriod(0)
        try target.lock()
        let error = try restoreError(entry([:], protection: .whenUnlocked), into: target)
        #expect(error?.status == SecurityStatus.interactionNotAllowed)
        #expect(error?.reason?.contains("unlock it and restore again") == true, "\(String(describing: error))")
        #expect(error?.reason?.contains("do not delete the item") == false)
    }

    /// An identity is a certificate and its key joined, never a stored item of its own: a backup cannot hold one.
    @Test func anIdentityEntryIsRefusedAsDamage() throws {
        var identity = entry([:])
        identity = BackupEntry(
            itemClass: .identity, uuid: identity.uuid, protection: identity.protection,
            attributes: identity.attributes, secret: identity.secret)
        let error = try restoreError(identity)
        #expect(error?.status == SecurityStatus.decode, "\(String(describing: error))")
        #expect(error?.reason?.contains("idnt") == true, "\(String(describing: error))")
    }
}
