import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Every kSecReturn… combination fills exactly the parts asked for, in a search and in an add.
@Suite struct ReturnOptionsTests {
    /// All 16 subsets of the four return options.
    static let combinations: [ReturnOptions] = (0..<16).map { ReturnOptions(rawValue: UInt8($0)) }

    /// A password's data comes with a reference too: it has no reference object, and its data takes the place of
    /// one (iOS's client keeps the data it fetched to make the reference).
    private func expectExactly(_ returns: ReturnOptions, in result: ItemResult, secret: String) {
        #expect(
            (result.data != nil) == !returns.isDisjoint(with: [.data, .reference]), "data for \(returns.rawValue)")
        #expect((result.attributes != nil) == returns.contains(.attributes), "attributes for \(returns.rawValue)")
        #expect(
            (result.persistentReference != nil) == returns.contains(.persistentReference),
            "persistent reference for \(returns.rawValue)")
        if let data = result.data { #expect(data.bytes == bytes(secret)) }
        if let attributes = result.attributes { #expect(attributes[.account] == .string("alice")) }
        if let reference = result.persistentReference { #expect(reference.bytes.count == 20) }
        #expect(result.itemClass == .genericPassword)
    }

    @Test(arguments: combinations)
    func searchFillsExactlyTheRequestedParts(returns: ReturnOptions) throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "s", account: "alice", secret: "open sesame"))
        let results = try keychain.copyMatching(genericQuery([.service: .string("s")], returns: returns))
        #expect(results.count == 1)
        expectExactly(returns, in: results[0], secret: "open sesame")
    }

    @Test(arguments: combinations)
    func addReturnsExactlyTheRequestedParts(returns: ReturnOptions) throws {
        let keychain = try makeKeychain()
        let result = try keychain.add(
            genericPassword(
                service: "s", account: "alice", secret: "open sesame",
                returns: returns))
        if returns.isEmpty {
            #expect(result == nil)
        } else {
            let result = try #require(result)
            expectExactly(returns, in: result, secret: "open sesame")
        }
    }

    @Test func addAndSearchReturnTheSameAttributesAndReference() throws {
        let keychain = try makeKeychain()
        let added = try #require(try keychain.add(genericPassword(returns: [.attributes, .persistentReference])))
        let found = try keychain.copyMatching(genericQuery([:], returns: [.attributes, .persistentReference]))[0]
        #expect(added.attributes == found.attributes)
        #expect(added.persistentReference == found.persistentReference)
    }

    @Test func attributesIncludeGroupSyncProtectionAndDates() throws {
        let clock = TestClock()
        let keychain = try makeKeychain(groups: ["TEAM1.app"], clock: clock.function)
        try keychain.add(genericPassword(service: "s", account: "alice", accessibility: .afterFirstUnlock))
        let attributes = try keychain.attributes(genericQuery([:]))
        #expect(attributes[.accessGroup] == .string("TEAM1.app"))
        #expect(attributes[.synchronizable] == .bool(false))
        #expect(attributes[.accessible] == .string("ck"))
        #expect(attributes[.creationDate] == .date(clock.now))
        #expect(attributes[.modificationDate] == .date(clock.now))
        #expect(attributes[.service] == .string("s"))
    }
}
