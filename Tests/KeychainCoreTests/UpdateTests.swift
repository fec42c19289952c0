import Foundation
import KeychainTestSupport
import Synchronization
import Testing

@testable import KeychainCore

/// SecItemUpdate: every match, all or nothing, dates, protection changes and its parameter errors.
@Suite struct UpdateTests {
    @Test func creationDateSurvivesAndModificationDateRefreshes() throws {
        let clock = TestClock()
        let keychain = try makeKeychain(clock: clock.function)
        let created = clock.now
        try keychain.add(genericPassword())
        clock.advance(by: 3600)
        try keychain.update(genericQuery([:], limit: .all), with: ItemChanges(attributes: [.label: .string("L")]))
        let attributes = try keychain.attributes(genericQuery([:]))
        #expect(attributes[.creationDate] == .date(created))
        #expect(attributes[.modificationDate] == .date(created + 3600))
        #expect(attributes[.label] == .string("L"))
    }

    @Test func datesCanBeMatched() throws {
        let clock = TestClock()
        let keychain = try makeKeychain(clock: clock.function)
        try keychain.add(genericPassword(account: "old"))
        let first = clock.now
        clock.advance(by: 10)
        try keychain.add(genericPassword(account: "new"))
        let found = try keychain.copyMatching(
            genericQuery([.creationDate: .date(first)], limit: .all, returns: .attributes))
        #expect(found.map { $0.attributes?[.account] } == [.string("old")])
        #expect(try keychain.count(genericQuery([.creationDate: .date(first + 1)])) == 0)
    }

    @Test func updateAppliesToEveryMatch() throws {
        let keychain = try makeKeychain()
        for account in ["a", "b", "c"] { try keychain.add(genericPassword(service: "s", account: account)) }
        try keychain.add(genericPassword(service: "other", account: "a", secret: "untouched"))
        try keychain.update(genericQuery([.service: .string("s")], limit: .all), with: ItemChanges(data: bytes("new")))
        let secrets = try keychain.copyMatching(genericQuery([:], limit: .all, returns: .data)).map { $0.data?.bytes }
        #expect(secrets == [bytes("new"), bytes("new"), bytes("new"), bytes("untouched")])
    }

    @Test func updateThatWouldCollideChangesNeitherItem() throws {
        let clock = TestClock()
        let keychain = try makeKeychain(clock: clock.function)
        try keychain.add(genericPassword(service: "s", account: "a", secret: "secret-a"))
        try keychain.add(genericPassword(service: "s", account: "b", secret: "secret-b"))
        clock.advance(by: 5)
        let error = #expect(throws: KeychainError.self) {
            try keychain.update(
                genericQuery([.service: .string("s")], limit: .all),
                with: ItemChanges(attributes: [.account: .string("c")], data: bytes("changed")))
        }
        #expect(error?.status == -25299)
        let items = try keychain.copyMatching(genericQuery([:], limit: .all, returns: [.data, .attributes]))
        #expect(items.map { $0.attributes?[.account] } == [.string("a"), .string("b")])
        #expect(items.map { $0.data?.bytes } == [bytes("secret-a"), bytes("secret-b")])
        #expect(items.allSatisfy { $0.attributes?[.modificationDate] == $0.attributes?[.creationDate] })
    }

    @Test func updateOntoAnotherItemsKeyIsDuplicate() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(account: "a", secret: "one"))
        try keychain.add(genericPassword(account: "b", secret: "two"))
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.update(
                genericQuery([.account: .string("a")], limit: .all),
                with: ItemChanges(attributes: [.account: .string("b")]))
        }
        #expect(try keychain.secret(genericQuery([.account: .string("a")])) == "one")
        #expect(try keychain.secret(genericQuery([.account: .string("b")])) == "two")
    }

    @Test func updateKeepingTheSamePrimaryKeySucceeds() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "s", account: "a"))
        try keychain.update(
            genericQuery([:], limit: .all),
            with: ItemChanges(attributes: [.account: .string("a"), .service: .data(bytes("s"))]))
        #expect(try keychain.attributes(genericQuery([:]))[.service] == .data(bytes("s")))
    }

    @Test func updateThatFailsLeavesTheKeychainUsable() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(account: "a"))
        try keychain.add(genericPassword(account: "b"))
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.update(genericQuery([:], limit: .all), with: ItemChanges(attributes: [.account: .string("c")]))
        }
        try keychain.add(genericPassword(account: "c", secret: "after"))
        #expect(try keychain.secret(genericQuery([.account: .string("c")])) == "after")
    }

    @Test(arguments: [MatchLimit.one, .count(1), .count(5)])
    func updateWithOneOrCountLimitIsParam(limit: MatchLimit) throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        let error = #expect(throws: KeychainError.self) {
            try keychain.update(genericQuery([:], limit: limit), with: ItemChanges(data: bytes("x")))
        }
        #expect(error?.status == -50)
        #expect(try keychain.secret(genericQuery([:])) == "secret")
    }

    @Test func updateWithReturnsIsParam() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        #expect(throws: KeychainError.param) {
            try keychain.update(genericQuery([:], limit: .all, returns: .data), with: ItemChanges(data: bytes("x")))
        }
    }

    /// As securityd, which rewrites each match as it is: an empty update succeeds when something matches (its
    /// modification date moves), and is errSecItemNotFound when nothing does.
    @Test func anEmptyUpdateRewritesTheMatchesAsTheyAre() throws {
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let now = Mutex(start)
        let keychain = try makeKeychain(clock: { now.withLock { $0 } })
        try keychain.add(genericPassword(secret: "kept"))
        now.withLock { $0 = start.addingTimeInterval(60) }
        try keychain.update(genericQuery([:], limit: .all), with: ItemChanges())
        let found = try #require(try keychain.copyMatching(genericQuery([:], returns: [.attributes, .data])).first)
        #expect(found.data?.bytes == bytes("kept"))
        #expect(found.attributes?[.modificationDate] == .date(start.addingTimeInterval(60)))
        #expect(found.attributes?[.creationDate] == .date(start))
        let error = #expect(throws: KeychainError.self) {
            try keychain.update(genericQuery([.account: .string("nobody")], limit: .all), with: ItemChanges())
        }
        #expect(error?.status == -25300)
    }

    @Test func updateWithNoMatchIsItemNotFound() throws {
        let keychain = try makeKeychain()
        let error = #expect(throws: KeychainError.self) {
            try keychain.update(genericQuery([.account: .string("nobody")], limit: .all), with: ItemChanges(data: [1]))
        }
        #expect(error?.status == -25300)
    }

    @Test func changingAccessibilityReencryptsAndReadsBack() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(secret: "keep me", accessibility: .whenUnlocked))
        try keychain.update(
            genericQuery([:], limit: .all),
            with: ItemChanges(accessibility: .afterFirstUnlockThisDeviceOnly))
        let item = try keychain.copyMatching(genericQuery([:], returns: [.data, .attributes]))[0]
        #expect(item.data?.bytes == bytes("keep me"))
        #expect(item.attributes?[.accessible] == .string("cku"))
        var byClass = genericQuery([:])
        byClass.accessibility = .afterFirstUnlockThisDeviceOnly
        #expect(try keychain.count(byClass) == 1)
        byClass.accessibility = .whenUnlocked
        #expect(try keychain.count(byClass) == 0)
    }

    @Test func changingAccessibilitySurvivesReopen() throws {
        let home = temporaryHome()
        let keychain = try makeKeychain(home: home)
        try keychain.add(genericPassword(secret: "durable"))
        try keychain.update(genericQuery([:], limit: .all), with: ItemChanges(accessibility: .always))
        keychain.close()
        let reopened = try makeKeychain(home: home)
        #expect(try reopened.secret(genericQuery([:])) == "durable")
    }

    @Test func updateKeepsTypesOfUntouchedAttributes() throws {
        let keychain = try makeKeychain()
        try keychain.add(
            NewItem(
                itemClass: .genericPassword,
                attributes: [.service: .string("s"), .account: .data(bytes("raw"))]))
        try keychain.update(genericQuery([:], limit: .all), with: ItemChanges(attributes: [.label: .string("L")]))
        #expect(try keychain.attributes(genericQuery([:]))[.account] == .data(bytes("raw")))
    }

    @Test func updateOfAttributeOfAnotherClassIsNoSuchAttr() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        let error = #expect(throws: KeychainError.self) {
            try keychain.update(genericQuery([:], limit: .all), with: ItemChanges(attributes: [.server: .string("x")]))
        }
        #expect(error?.status == -25303)
    }
}
