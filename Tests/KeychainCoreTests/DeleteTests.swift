import Foundation
import Testing

@testable import KeychainCore

/// SecItemDelete removes every match; a limit other than All is a parameter error.
@Suite struct DeleteTests {
    @Test func deleteRemovesEveryMatchAndNothingElse() throws {
        let keychain = try makeKeychain()
        for account in ["a", "b", "c"] { try keychain.add(genericPassword(service: "s", account: account)) }
        try keychain.add(genericPassword(service: "keep", account: "a"))
        #expect(try keychain.delete(genericQuery([.service: .string("s")], limit: .all)) == 3)
        #expect(try keychain.count(genericQuery([:])) == 1)
        #expect(try keychain.count(genericQuery([.service: .string("keep")])) == 1)
    }

    @Test func deleteWithoutAttributesEmptiesTheClassOnly() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        try keychain.add(NewItem(itemClass: .internetPassword, attributes: [.server: .string("example.com")]))
        #expect(try keychain.delete(genericQuery([:], limit: .all)) == 1)
        #expect(try keychain.copyMatching(ItemQuery(itemClass: .internetPassword)).count == 1)
    }

    @Test(arguments: [MatchLimit.one, .count(1), .count(10)])
    func deleteWithOneOrCountLimitIsParam(limit: MatchLimit) throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        let error = #expect(throws: KeychainError.self) { try keychain.delete(genericQuery([:], limit: limit)) }
        #expect(error?.status == -50)
        #expect(try keychain.count(genericQuery([:])) == 1)
    }

    @Test func deleteWithNoMatchIsItemNotFound() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(account: "a"))
        let error = #expect(throws: KeychainError.self) {
            try keychain.delete(genericQuery([.account: .string("b")], limit: .all))
        }
        #expect(error?.status == -25300)
    }

    @Test func deletedItemCanBeAddedAgain() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(secret: "first"))
        try keychain.delete(genericQuery([:], limit: .all))
        try keychain.add(genericPassword(secret: "second"))
        #expect(try keychain.secret(genericQuery([:])) == "second")
    }
}
