import KeychainCore
import KeychainRequests
import KeychainTestSupport
import Testing

/// One keychain serving two callers, as a daemon does: each sees only its own groups.
@Suite struct CallerIsolationTests {
    @Test func twoCallersOnOneKeychainSeeOnlyTheirOwnGroups() throws {
        try withService { service in
            let alice = KeychainClient(service: service, caller: caller("TEAM.alice"))
            let bob = KeychainClient(service: service, caller: caller("TEAM.bob"))
            try alice.add(password("shared-name", "alice-secret"))
            try bob.add(password("shared-name", "bob-secret"))
            try bob.add(password("bob-only"))

            let aliceSees = try alice.copyMatching(query("shared-name", returns: [.data, .attributes]))
            #expect(aliceSees.count == 1)
            #expect(aliceSees.first?.data?.bytes == Array("alice-secret".utf8))
            #expect(aliceSees.first?.attributes?[.accessGroup] == .string("TEAM.alice"))
            #expect(status { _ = try alice.copyMatching(query("bob-only")) } == SecurityStatus.itemNotFound)
            #expect(
                status { try alice.update(query("bob-only", limit: .all), with: ItemChanges(data: [1])) }
                    == SecurityStatus.itemNotFound)
            #expect(status { try alice.delete(query("bob-only", limit: .all)) } == SecurityStatus.itemNotFound)
            var named = query("bob-only")
            named.accessGroup = "TEAM.bob"
            #expect(status { _ = try alice.copyMatching(named) } == SecurityStatus.missingEntitlement)
            #expect(status { _ = try alice.previewSearch(named) } == SecurityStatus.missingEntitlement)

            let all = ItemQuery(itemClass: .genericPassword, limit: .all, returns: .attributes)
            #expect(try bob.copyMatching(all).count == 2)
            #expect(try alice.copyMatching(all).count == 1)
            // The configuration's identity (neither of them) sees none of it.
            let owner = KeychainClient(service: service)
            #expect(status { _ = try owner.copyMatching(all) } == SecurityStatus.itemNotFound)
        }
    }

    @Test func theEngineTakesTheCallerPerCall() throws {
        try withService { service in
            let keychain = service.keychain
            let other = CallerIdentity(applicationIdentifier: "X.other", accessGroups: ["X.other"])
            try keychain.add(password("a"), as: other)
            #expect(status { _ = try keychain.copyMatching(query("a")) } == SecurityStatus.itemNotFound)
            #expect(
                try keychain.copyMatching(query("a", returns: .attributes), as: other).first?
                    .attributes?[.accessGroup] == .string("X.other"))
        }
    }
}
