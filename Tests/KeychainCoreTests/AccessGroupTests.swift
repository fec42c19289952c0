import Foundation
import Testing

@testable import KeychainCore

/// Access groups scope every call: the default group for adds, searches across the caller's groups,
/// errSecMissingEntitlement for groups the caller lacks, and other callers' items out of sight.
@Suite struct AccessGroupTests {
    private static let groups = ["TEAM1.com.example.app", "TEAM1.com.example.shared", "group.com.example"]

    @Test func addWithoutGroupUsesTheCallersFirstGroup() throws {
        let keychain = try makeKeychain(groups: Self.groups)
        try keychain.add(genericPassword())
        #expect(try keychain.attributes(genericQuery([:]))[.accessGroup] == .string("TEAM1.com.example.app"))
    }

    @Test func addToANamedGroupTheCallerHas() throws {
        let keychain = try makeKeychain(groups: Self.groups)
        try keychain.add(genericPassword(accessGroup: "group.com.example"))
        #expect(try keychain.attributes(genericQuery([:]))[.accessGroup] == .string("group.com.example"))
        #expect(try keychain.count(genericQuery([:], accessGroup: "group.com.example")) == 1)
        #expect(try keychain.count(genericQuery([:], accessGroup: "TEAM1.com.example.app")) == 0)
    }

    @Test func queryWithoutGroupSearchesEveryGroupOfTheCaller() throws {
        let keychain = try makeKeychain(groups: Self.groups)
        try keychain.add(genericPassword(account: "shared", accessGroup: "TEAM1.com.example.shared"))
        try keychain.add(genericPassword(account: "app"))
        try keychain.add(genericPassword(account: "group", accessGroup: "group.com.example"))
        let found = try keychain.copyMatching(genericQuery([:], limit: .all, returns: .attributes))
        #expect(found.map { $0.attributes?[.account] } == [.string("shared"), .string("app"), .string("group")])
        #expect(try keychain.delete(genericQuery([:], limit: .all)) == 3)
    }

    @Test func namingAGroupTheCallerLacksIsMissingEntitlementEverywhere() throws {
        let keychain = try makeKeychain(groups: Self.groups)
        try keychain.add(genericPassword())
        let foreign = "OTHER.com.example.app"
        var all = genericQuery([:], limit: .all)
        var named = all
        named.accessGroup = foreign
        #expect(throws: KeychainError.missingEntitlement) { try keychain.add(genericPassword(accessGroup: foreign)) }
        #expect(throws: KeychainError.missingEntitlement) { try keychain.copyMatching(named) }
        #expect(throws: KeychainError.missingEntitlement) { try keychain.update(named, with: ItemChanges(data: [1])) }
        #expect(throws: KeychainError.missingEntitlement) {
            try keychain.update(all, with: ItemChanges(accessGroup: foreign))
        }
        #expect(throws: KeychainError.missingEntitlement) { try keychain.delete(named) }
        all.returns = .attributes
        let item = try keychain.copyMatching(all)
        #expect(item.count == 1)
        #expect(item[0].attributes?[.accessGroup] == .string("TEAM1.com.example.app"))
    }

    @Test func missingEntitlementHasAppleStatus() throws {
        let keychain = try makeKeychain(groups: Self.groups)
        let error = #expect(throws: KeychainError.self) { try keychain.add(genericPassword(accessGroup: "nope")) }
        #expect(error?.status == -34018)
    }

    @Test func callerWithNoGroupsIsMissingEntitlementForEveryCall() throws {
        let home = temporaryHome()
        try makeKeychain(home: home).add(genericPassword())
        let keychain = try makeKeychain(groups: [], home: home)
        let all = genericQuery([:], limit: .all)
        #expect(throws: KeychainError.missingEntitlement) { try keychain.add(genericPassword(account: "new")) }
        #expect(throws: KeychainError.missingEntitlement) { try keychain.copyMatching(genericQuery([:])) }
        #expect(throws: KeychainError.missingEntitlement) { try keychain.update(all, with: ItemChanges(data: [1])) }
        #expect(throws: KeychainError.missingEntitlement) { try keychain.delete(all) }
        #expect(throws: KeychainError.missingEntitlement) {
            try keychain.add(NewItem(itemClass: .internetPassword, attributes: [.server: .string("example.com")]))
        }
    }

    @Test func updateCanMoveAnItemToAnotherGroupOfTheCaller() throws {
        let keychain = try makeKeychain(groups: Self.groups)
        try keychain.add(genericPassword())
        try keychain.update(genericQuery([:], limit: .all), with: ItemChanges(accessGroup: "TEAM1.com.example.shared"))
        #expect(try keychain.count(genericQuery([:], accessGroup: "TEAM1.com.example.shared")) == 1)
        #expect(try keychain.count(genericQuery([:], accessGroup: "TEAM1.com.example.app")) == 0)
    }

    @Test func otherCallersItemsAreInvisible() throws {
        let home = temporaryHome()
        let mine = try makeKeychain(groups: ["TEAM1.mine", "TEAM1.shared"], home: home)
        let theirs = try makeKeychain(groups: ["TEAM2.theirs", "TEAM1.shared"], home: home)
        let reference = try #require(
            try mine.add(genericPassword(secret: "mine", returns: .persistentReference))?
                .persistentReference)
        let all = genericQuery([:], limit: .all)
        #expect(throws: KeychainError.itemNotFound) { try theirs.copyMatching(genericQuery([:])) }
        #expect(throws: KeychainError.itemNotFound) {
            try theirs.copyMatching(ItemQuery(persistentReference: reference))
        }
        #expect(throws: KeychainError.itemNotFound) { try theirs.update(all, with: ItemChanges(data: bytes("stolen"))) }
        #expect(throws: KeychainError.itemNotFound) { try theirs.delete(all) }
        // The same primary key in another group is another item.
        try theirs.add(genericPassword(secret: "theirs"))
        #expect(try mine.secret(genericQuery([:])) == "mine")
        #expect(try theirs.secret(genericQuery([:])) == "theirs")
        #expect(try mine.count(all) == 1)
    }

    @Test func sharedGroupIsVisibleToEveryCallerThatHasIt() throws {
        let home = temporaryHome()
        let mine = try makeKeychain(groups: ["TEAM1.mine", "TEAM1.shared"], home: home)
        let theirs = try makeKeychain(groups: ["TEAM2.theirs", "TEAM1.shared"], home: home)
        try mine.add(genericPassword(secret: "together", accessGroup: "TEAM1.shared"))
        #expect(try theirs.secret(genericQuery([:])) == "together")
        #expect(throws: KeychainError.duplicateItem) { try theirs.add(genericPassword(accessGroup: "TEAM1.shared")) }
    }

    /// The keychain's owner (keychaind's owner rights, Keychain Access on a Mac) covers every group, held or not:
    /// its searches, updates and deletes reach every app's items, and it may write to a group no item has yet
    /// (a service's secret put in place before the service first runs). Its adds without a group go to its own.
    @Test func anOwnerCoversEveryGroupAndMayNameAnyGroup() throws {
        let home = temporaryHome()
        try makeKeychain(groups: ["TEAM1.a"], home: home).add(genericPassword(account: "a", secret: "of a"))
        try makeKeychain(groups: ["TEAM2.b"], home: home).add(genericPassword(account: "b", secret: "of b"))
        let owner = try Keychain(
            configuration: KeychainConfiguration(
                home: home,
                identity: CallerIdentity(
                    applicationIdentifier: "LOCAL.security", accessGroups: ["LOCAL.security"], isOwner: true)))
        let found = try owner.copyMatching(genericQuery([:], limit: .all, returns: .attributes))
        #expect(found.map { $0.attributes?[.accessGroup] } == [.string("TEAM1.a"), .string("TEAM2.b")])
        #expect(try owner.count(genericQuery([:], accessGroup: "TEAM2.b")) == 1)
        #expect(throws: KeychainError.itemNotFound) {
            try owner.copyMatching(genericQuery([:], accessGroup: "TEAM3.c"))
        }
        try owner.add(genericPassword(account: "c", secret: "for c", accessGroup: "TEAM3.c"))
        try owner.add(genericPassword(account: "own"))
        #expect(
            try owner.attributes(genericQuery([.account: .string("own")]))[.accessGroup] == .string("LOCAL.security"))
        #expect(try makeKeychain(groups: ["TEAM3.c"], home: home).secret(genericQuery([:])) == "for c")
        try owner.update(genericQuery([.account: .string("b")], limit: .all), with: ItemChanges(accessGroup: "TEAM4.d"))
        #expect(try makeKeychain(groups: ["TEAM4.d"], home: home).secret(genericQuery([:])) == "of b")
        #expect(try owner.delete(genericQuery([:], limit: .all)) == 4)
        // A group name longer than any app's is refused, whatever the call.
        let long = String(repeating: "g", count: 1025)
        #expect(throws: KeychainError.param) { try owner.add(genericPassword(account: "long", accessGroup: long)) }
        #expect(throws: KeychainError.param) { try owner.copyMatching(genericQuery([:], accessGroup: long)) }
        // No app holds the external tokens' group or an empty name: the owner writes to neither.
        for group in [CallerIdentity.tokenAccessGroup, ""] {
            #expect(throws: KeychainError.missingEntitlement) {
                try owner.add(genericPassword(account: "nowhere", accessGroup: group))
            }
        }
        // An app's identity is untouched by the owner's: naming another group is still refused.
        #expect(throws: KeychainError.missingEntitlement) {
            try makeKeychain(groups: ["TEAM1.a"], home: home).copyMatching(genericQuery([:], accessGroup: "TEAM2.b"))
        }
    }
}
