import Foundation
import Testing

@testable import KeychainCore

/// kSecMatchLimit in a search: default one, a count, all in insertion order, zero → not found.
@Suite struct MatchLimitTests {
    /// A keychain holding accounts "c", "a", "d", "b" of service "s", added in that order.
    private func keychainWithFourItems() throws -> Keychain {
        let keychain = try makeKeychain()
        for account in ["c", "a", "d", "b"] {
            try keychain.add(genericPassword(service: "s", account: account, secret: "secret-\(account)"))
        }
        return keychain
    }

    private func accounts(_ results: [ItemResult]) -> [AttributeValue?] {
        results.map { $0.attributes?[.account] }
    }

    @Test func defaultLimitIsOneAndItIsTheFirstAdded() throws {
        let keychain = try keychainWithFourItems()
        let results = try keychain.copyMatching(
            ItemQuery(
                itemClass: .genericPassword, attributes: [.service: .string("s")], returns: .attributes))
        #expect(accounts(results) == [.string("c")])
    }

    @Test func countLimitReturnsThatManyInInsertionOrder() throws {
        let keychain = try keychainWithFourItems()
        let results = try keychain.copyMatching(
            genericQuery([.service: .string("s")], limit: .count(2), returns: .attributes))
        #expect(accounts(results) == [.string("c"), .string("a")])
    }

    @Test func countAboveMatchesReturnsEveryMatch() throws {
        let keychain = try keychainWithFourItems()
        #expect(try keychain.copyMatching(genericQuery([.service: .string("s")], limit: .count(50))).count == 4)
    }

    @Test func allReturnsEveryMatchInInsertionOrder() throws {
        let keychain = try keychainWithFourItems()
        let results = try keychain.copyMatching(
            genericQuery([.service: .string("s")], limit: .all, returns: .attributes))
        #expect(accounts(results) == [.string("c"), .string("a"), .string("d"), .string("b")])
    }

    @Test func insertionOrderSurvivesUpdates() throws {
        let keychain = try keychainWithFourItems()
        try keychain.update(genericQuery([.account: .string("c")], limit: .all), with: ItemChanges(data: bytes("new")))
        let results = try keychain.copyMatching(genericQuery([:], limit: .all, returns: .attributes))
        #expect(accounts(results) == [.string("c"), .string("a"), .string("d"), .string("b")])
    }

    @Test func countZeroIsItemNotFound() throws {
        let keychain = try keychainWithFourItems()
        let error = #expect(throws: KeychainError.self) {
            try keychain.copyMatching(genericQuery([.service: .string("s")], limit: .count(0)))
        }
        #expect(error?.status == -25300)
    }

    @Test func negativeCountIsParam() throws {
        let keychain = try keychainWithFourItems()
        #expect(throws: KeychainError.param) { try keychain.copyMatching(genericQuery([:], limit: .count(-1))) }
    }

    @Test func noMatchIsItemNotFound() throws {
        let keychain = try keychainWithFourItems()
        let error = #expect(throws: KeychainError.self) {
            try keychain.copyMatching(genericQuery([.service: .string("absent")], limit: .all))
        }
        #expect(error?.status == -25300)
    }
}
