import Testing

@testable import KeychainCore

@Suite struct SmokeTests {
    @Test func addFindUpdateDelete() throws {
        let keychain = try makeKeychain()
        try keychain.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.service: .string("s"), .account: .string("a")],
                data: Array("secret".utf8)))
        let found = try keychain.copyMatching(
            .genericPassword(service: "s", account: "a", returns: [.data, .attributes]))
        #expect(found.count == 1)
        #expect(found[0].data?.bytes == Array("secret".utf8))
        #expect(found[0].attributes?[.accessGroup] == .string("TEAM1.com.example.app"))
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.add(
                NewItem(
                    itemClass: .genericPassword,
                    attributes: [.service: .string("s"), .account: .string("a"), .label: .string("x")]))
        }
        var all = ItemQuery.genericPassword(service: "s", account: "a")
        all.limit = .all
        try keychain.update(all, with: ItemChanges(data: Array("new".utf8)))
        let updated = try keychain.copyMatching(.genericPassword(service: "s", account: "a", returns: .data))
        #expect(updated[0].data?.bytes == Array("new".utf8))
        #expect(try keychain.delete(all) == 1)
        #expect(throws: KeychainError.itemNotFound) {
            try keychain.copyMatching(.genericPassword(service: "s", account: "a"))
        }
    }
}
