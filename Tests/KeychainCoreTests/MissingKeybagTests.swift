import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// A keybag that disappears next to a database with items must not be replaced by a fresh one: new class keys
/// would turn every existing item into errSecDecode, and a later restore of the old keybag would lose whatever
/// was added under the new keys.
@Suite struct MissingKeybagTests {
    private func removeKeybag(_ home: URL) throws {
        try FileManager.default.removeItem(at: home.appendingPathComponent(KeybagDocument.fileName))
    }

    @Test func aMissingKeybagBesideItemsIsAnError() throws {
        let home = temporaryHome()
        do {
            let keychain = try fastKDFKeychain(home: home)
            try keychain.addToken("alice", .afterFirstUnlock)
            keychain.close()
        }
        let keybag = home.appendingPathComponent(KeybagDocument.fileName)
        let original = try Data(contentsOf: keybag)
        try removeKeybag(home)

        var caught: KeychainError?
        do { _ = try fastKDFKeychain(home: home) } catch let error as KeychainError { caught = error }
        #expect(caught?.status == SecurityStatus.notAvailable)
        #expect(caught?.reason?.contains("keybag") == true)
        #expect(caught?.reason?.contains("missing") == true)
        // Nothing was recreated: putting the old keybag back restores every item.
        #expect(!FileManager.default.fileExists(atPath: keybag.path))
        try original.write(to: keybag)
        let reopened = try fastKDFKeychain(home: home)
        #expect(reopened.secretText("alice") == "alice")
    }

    @Test func aMissingKeybagBesideAnEmptyDatabaseIsRecreated() throws {
        let home = temporaryHome()
        do {
            let keychain = try fastKDFKeychain(home: home)
            try keychain.addToken("alice", .afterFirstUnlock)
            _ = try keychain.delete(accountQuery("alice"))
            keychain.close()
        }
        try removeKeybag(home)
        let keychain = try fastKDFKeychain(home: home)
        try keychain.addToken("bob", .afterFirstUnlock)
        #expect(keychain.secretText("bob") == "bob")
    }

    @Test func aMissingDeviceKeyAndKeybagBesideItemsCreateNothing() throws {
        let home = temporaryHome()
        do {
            let keychain = try fastKDFKeychain(home: home)
            try keychain.addToken("alice", .always)
            keychain.close()
        }
        try removeKeybag(home)
        try FileManager.default.removeItem(at: home.appendingPathComponent(DeviceKey.fileName))
        #expect(status { _ = try fastKDFKeychain(home: home) } == SecurityStatus.notAvailable)
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent(DeviceKey.fileName).path))
    }
}
