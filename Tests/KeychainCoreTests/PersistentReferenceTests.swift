import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Persistent references: 20 bytes (class name + item UUID), stable across updates, usable without a class.
@Suite struct PersistentReferenceTests {
    private func reference(of item: NewItem, in keychain: Keychain) throws -> PersistentReference {
        var item = item
        item.returns = .persistentReference
        return try #require(try keychain.add(item)?.persistentReference)
    }

    @Test func referenceIsClassNameFollowedBySixteenByteUUID() throws {
        let keychain = try makeKeychain()
        let genp = try reference(of: genericPassword(), in: keychain).bytes
        #expect(genp.count == 20)
        #expect(Array(genp[0..<4]) == bytes("genp"))
        let inet = try reference(
            of: NewItem(itemClass: .internetPassword, attributes: [.server: .string("example.com")]), in: keychain)
        #expect(Array(inet.bytes[0..<4]) == bytes("inet"))
        #expect(PersistentReference(bytes: inet.bytes) == inet)
        #expect(PersistentReference(bytes: Array(inet.bytes.prefix(19))) == nil)
        #expect(PersistentReference(bytes: bytes("xxxx") + Array(inet.bytes[4...])) == nil)
    }

    @Test func eachItemHasItsOwnReference() throws {
        let keychain = try makeKeychain()
        let first = try reference(of: genericPassword(account: "a"), in: keychain)
        let second = try reference(of: genericPassword(account: "b"), in: keychain)
        #expect(first != second)
    }

    @Test func lookupByReferenceNeedsNoClass() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(account: "other", secret: "wrong"))
        let reference = try reference(of: genericPassword(account: "mine", secret: "right"), in: keychain)
        let found = try keychain.copyMatching(ItemQuery(returns: [.data, .attributes], persistentReference: reference))
        #expect(found.count == 1)
        #expect(found[0].data?.bytes == bytes("right"))
        #expect(found[0].attributes?[.account] == .string("mine"))
    }

    @Test func referenceFindsSynchronizableItems() throws {
        let keychain = try makeKeychain()
        let reference = try reference(of: genericPassword(synchronizable: true), in: keychain)
        #expect(try keychain.copyMatching(ItemQuery(persistentReference: reference)).count == 1)
    }

    @Test func referenceIsStableAcrossUpdates() throws {
        let clock = TestClock()
        let keychain = try makeKeychain(clock: clock.function)
        let reference = try reference(of: genericPassword(account: "before"), in: keychain)
        clock.advance(by: 60)
        try keychain.update(
            genericQuery([.account: .string("before")], limit: .all),
            with: ItemChanges(
                attributes: [.account: .string("after"), .label: .string("L")],
                accessibility: .afterFirstUnlock, data: bytes("new")))
        let found = try keychain.copyMatching(
            ItemQuery(
                returns: [.data, .attributes, .persistentReference],
                persistentReference: reference))
        #expect(found[0].persistentReference == reference)
        #expect(found[0].attributes?[.account] == .string("after"))
        #expect(found[0].data?.bytes == bytes("new"))
        let bySearch = try keychain.copyMatching(
            genericQuery([.account: .string("after")], returns: .persistentReference))
        #expect(bySearch[0].persistentReference == reference)
    }

    /// As in Apple's query parser, attributes next to a reference narrow the match (issue 11).
    @Test func referenceCombinedWithAttributesMatchesBoth() throws {
        let keychain = try makeKeychain()
        let reference = try reference(of: genericPassword(), in: keychain)
        let matching = ItemQuery(attributes: [.account: .string("account")], persistentReference: reference)
        #expect(try keychain.copyMatching(matching).count == 1)
        #expect(throws: KeychainError.itemNotFound) {
            try keychain.copyMatching(
                ItemQuery(
                    attributes: [.account: .string("other")],
                    persistentReference: reference))
        }
    }

    /// As Apple's query parser, which takes the reference's class as a second kSecClass (issue 11's survey).
    @Test func referenceWithOtherClassIsNoSuchClass() throws {
        let keychain = try makeKeychain()
        let reference = try reference(of: genericPassword(), in: keychain)
        let error = #expect(throws: KeychainError.self) {
            try keychain.copyMatching(ItemQuery(itemClass: .internetPassword, persistentReference: reference))
        }
        #expect(error?.status == -25306)
        let named = ItemQuery(itemClass: .genericPassword, persistentReference: reference)
        #expect(try keychain.copyMatching(named).count == 1)
    }

    @Test func updateAndDeleteByReference() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(account: "keep"))
        let reference = try reference(of: genericPassword(account: "target"), in: keychain)
        try keychain.update(ItemQuery(limit: .all, persistentReference: reference), with: ItemChanges(data: bytes("x")))
        #expect(try keychain.secret(genericQuery([.account: .string("target")])) == "x")
        #expect(try keychain.delete(ItemQuery(limit: .all, persistentReference: reference)) == 1)
        #expect(throws: KeychainError.itemNotFound) {
            try keychain.copyMatching(ItemQuery(persistentReference: reference))
        }
        #expect(try keychain.count(genericQuery([:])) == 1)
    }

    @Test func queryWithoutClassOrReferenceIsParam() throws {
        let keychain = try makeKeychain()
        let error = #expect(throws: KeychainError.self) { try keychain.copyMatching(ItemQuery()) }
        #expect(error?.status == -50)
    }
}
