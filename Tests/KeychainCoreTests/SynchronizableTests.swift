import Foundation
import Testing

@testable import KeychainCore

/// kSecAttrSynchronizable: absent means "not synchronizable"; Any means both (Apple's header and server).
@Suite struct SynchronizableTests {
    private func keychainWithBoth() throws -> Keychain {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "s", account: "a", secret: "local"))
        try keychain.add(genericPassword(service: "s", account: "a", secret: "synced", synchronizable: true))
        return keychain
    }

    @Test func absentFilterFindsOnlyNonSynchronizableItems() throws {
        let keychain = try keychainWithBoth()
        let results = try keychain.copyMatching(genericQuery([.service: .string("s")], limit: .all, returns: .data))
        #expect(results.map { $0.data?.bytes } == [bytes("local")])
    }

    @Test func yesFindsOnlySynchronizableItems() throws {
        let keychain = try keychainWithBoth()
        let results = try keychain.copyMatching(
            genericQuery([.service: .string("s")], limit: .all, returns: [.data, .attributes], synchronizable: .yes))
        #expect(results.map { $0.data?.bytes } == [bytes("synced")])
        #expect(results.first?.attributes?[.synchronizable] == .bool(true))
    }

    @Test func anyFindsBoth() throws {
        let keychain = try keychainWithBoth()
        #expect(try keychain.count(genericQuery([.service: .string("s")], synchronizable: .any)) == 2)
    }

    @Test func synchronizableOnlyItemIsInvisibleToDefaultQuery() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(synchronizable: true))
        #expect(throws: KeychainError.itemNotFound) { try keychain.copyMatching(genericQuery([:])) }
        #expect(throws: KeychainError.itemNotFound) { try keychain.delete(genericQuery([:], limit: .all)) }
        #expect(try keychain.delete(genericQuery([:], limit: .all, synchronizable: .any)) == 1)
    }

    /// iOS stores a synchronizable ThisDeviceOnly item (sync = 1, its class kept), though Apple's header rules the
    /// combination out (issue 11).
    @Test(arguments: [
        Accessibility.whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly,
    ])
    func synchronizableThisDeviceOnlyAddIsStored(accessibility: Accessibility) throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(synchronizable: true, accessibility: accessibility))
        let found = try keychain.copyMatching(genericQuery([:], returns: .attributes, synchronizable: .yes))
        #expect(found.first?.attributes?[.synchronizable] == .bool(true))
        #expect(found.first?.attributes?[.accessible] == .string(accessibility.rawValue))
    }

    @Test func makingThisDeviceOnlyItemSynchronizableIsAllowed() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(accessibility: .whenUnlockedThisDeviceOnly))
        try keychain.update(genericQuery([:], limit: .all), with: ItemChanges(synchronizable: true))
        #expect(try keychain.count(genericQuery([:], synchronizable: .yes)) == 1)
    }

    @Test func makingSynchronizableItemThisDeviceOnlyIsAllowed() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(synchronizable: true))
        try keychain.update(
            genericQuery([:], limit: .all, synchronizable: .yes),
            with: ItemChanges(accessibility: .afterFirstUnlockThisDeviceOnly))
        let found = try keychain.copyMatching(genericQuery([:], returns: .attributes, synchronizable: .yes))
        #expect(found.first?.attributes?[.accessible] == .string("cku"))
    }

    @Test func turningSynchronizationOnOntoAnExistingSynchronizableItemIsDuplicate() throws {
        let keychain = try keychainWithBoth()
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.update(genericQuery([:], limit: .all), with: ItemChanges(synchronizable: true))
        }
        #expect(try keychain.secret(genericQuery([:])) == "local")
    }

    @Test func updateCanTurnSynchronizationOn() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        try keychain.update(genericQuery([:], limit: .all), with: ItemChanges(synchronizable: true))
        #expect(try keychain.count(genericQuery([:])) == 0)
        #expect(try keychain.count(genericQuery([:], synchronizable: .yes)) == 1)
    }
}
