import Foundation
import Testing

@testable import KeychainCore

/// How values compare and come back: stored type kept, string equals data with the same bytes, case folding.
@Suite struct AttributeMatchingTests {
    @Test func accountStoredAsDataComesBackAsData() throws {
        let keychain = try makeKeychain()
        try keychain.add(
            NewItem(
                itemClass: .genericPassword,
                attributes: [.service: .string("s"), .account: .data(bytes("alice")), .label: .data([0xFF, 0x00])]))
        let attributes = try keychain.attributes(genericQuery([.service: .string("s")]))
        #expect(attributes[.account] == .data(bytes("alice")))
        #expect(attributes[.label] == .data([0xFF, 0x00]))
        #expect(attributes[.service] == .string("s"))
    }

    @Test func numbersAndBooleansComeBackWithTheirTypes() throws {
        let keychain = try makeKeychain()
        try keychain.add(
            NewItem(
                itemClass: .internetPassword,
                attributes: [
                    .server: .string("example.com"), .port: .number(8443), .isInvisible: .bool(true),
                    .creator: .number(0x6170_706C),
                ]))
        let attributes = try #require(
            try keychain.copyMatching(
                ItemQuery(itemClass: .internetPassword, returns: .attributes))[0].attributes)
        #expect(attributes[.port] == .number(8443))
        #expect(attributes[.isInvisible] == .bool(true))
        #expect(attributes[.creator] == .number(0x6170_706C))
        // An absent path reads back as Apple's default for its blob column: empty data.
        #expect(attributes[.path] == .data([]))
    }

    @Test func stringQueryMatchesDataWithTheSameBytesAndBack() throws {
        let keychain = try makeKeychain()
        try keychain.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.service: .string("s"), .account: .data(bytes("alice"))],
                data: bytes("one")))
        try keychain.add(genericPassword(service: "t", account: "bob", secret: "two"))
        #expect(try keychain.secret(genericQuery([.account: .string("alice")])) == "one")
        #expect(try keychain.secret(genericQuery([.account: .data(bytes("bob"))])) == "two")
    }

    @Test func matchingIsCaseSensitiveByDefault() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "MyService", account: "Alice"))
        #expect(throws: KeychainError.itemNotFound) {
            try keychain.copyMatching(genericQuery([.service: .string("myservice")]))
        }
    }

    @Test func caseInsensitiveMatchesAsciiCaseVariants() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "MyService", account: "Alice", secret: "found"))
        let query = genericQuery([.service: .string("MYSERVICE"), .account: .string("alice")], caseInsensitive: true)
        #expect(try keychain.secret(query) == "found")
    }

    @Test func caseInsensitiveFoldsUnicodeLetters() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "ÄBC", account: "ΣΊΣΥΦΟΣ", secret: "unicode"))
        let query = genericQuery(
            [.service: .string("äbc"), .account: .string("σίσυφος")], caseInsensitive: true)
        #expect(try keychain.secret(query) == "unicode")
        #expect(throws: KeychainError.itemNotFound) {
            try keychain.copyMatching(genericQuery([.service: .string("äbc")]))
        }
    }

    @Test func caseInsensitiveAppliesToNonKeyTextAttributes() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(extra: [.label: .string("Work Mail")]))
        #expect(try keychain.count(genericQuery([.label: .string("work mail")], caseInsensitive: true)) == 1)
        #expect(try keychain.count(genericQuery([.label: .string("work mai")], caseInsensitive: true)) == 0)
    }

    @Test func caseInsensitiveUpdateAndDeleteFindTheSameItems() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "Mail", account: "Ann"))
        var query = genericQuery([.service: .string("MAIL")], limit: .all, caseInsensitive: true)
        try keychain.update(query, with: ItemChanges(data: bytes("changed")))
        #expect(try keychain.secret(genericQuery([.service: .string("Mail")])) == "changed")
        query.attributes[.account] = .string("aNN")
        #expect(try keychain.delete(query) == 1)
    }

    @Test func queryOnAbsentOptionalAttributeFindsNothing() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        #expect(try keychain.count(genericQuery([.label: .string("anything")])) == 0)
        #expect(try keychain.count(genericQuery([.service: .string("service")])) == 1)
    }
}
