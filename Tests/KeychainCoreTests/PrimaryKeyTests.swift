import Foundation
import Testing

@testable import KeychainCore

/// Which attributes make two items the same item, per class (DESIGN.md "Item model and query semantics").
@Suite struct PrimaryKeyTests {
    private static let inetBase: [AttributeKey: AttributeValue] = [
        .account: .string("alice"), .securityDomain: .string("realm"), .server: .string("example.com"),
        .protocol: .string("htps"), .authenticationType: .string("form"), .port: .number(443),
        .path: .string("/login"),
    ]

    private func internetPassword(_ attributes: [AttributeKey: AttributeValue], accessibility: Accessibility? = nil)
        -> NewItem
    {
        NewItem(
            itemClass: .internetPassword, attributes: attributes, accessibility: accessibility,
            data: bytes("pw"))
    }

    @Test func genericPasswordsDifferingOnlyInLabelCommentOrGenericAreDuplicates() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(extra: [.label: .string("one"), .comment: .string("c1")]))
        for extra: [AttributeKey: AttributeValue] in [
            [.label: .string("two")], [.comment: .string("c2")], [.generic: .data([1, 2, 3])],
            [.description: .string("other")],
        ] {
            #expect(throws: KeychainError.duplicateItem) { try keychain.add(genericPassword(extra: extra)) }
        }
    }

    @Test func genericPasswordDifferingOnlyInAccessibilityIsDuplicate() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(accessibility: .whenUnlocked))
        let error = #expect(throws: KeychainError.self) {
            try keychain.add(genericPassword(accessibility: .afterFirstUnlock))
        }
        #expect(error?.status == -25299)
    }

    @Test func genericPasswordKeyIsAccountServiceGroupAndSync() throws {
        let keychain = try makeKeychain(groups: ["TEAM1.app", "TEAM1.shared"])
        try keychain.add(genericPassword(service: "s", account: "a"))
        try keychain.add(genericPassword(service: "s", account: "b"))
        try keychain.add(genericPassword(service: "t", account: "a"))
        try keychain.add(genericPassword(service: "s", account: "a", accessGroup: "TEAM1.shared"))
        try keychain.add(genericPassword(service: "s", account: "a", synchronizable: true))
        #expect(try keychain.count(genericQuery([:], synchronizable: .any)) == 5)
    }

    @Test func internetPasswordKeyCoversEveryKeyAttribute() throws {
        let keychain = try makeKeychain()
        try keychain.add(internetPassword(Self.inetBase))
        let variants: [(AttributeKey, AttributeValue)] = [
            (.account, .string("bob")), (.securityDomain, .string("other realm")), (.server, .string("example.org")),
            (.protocol, .string("http")), (.authenticationType, .string("dflt")), (.port, .number(8443)),
            (.path, .string("/other")),
        ]
        for (key, value) in variants {
            var attributes = Self.inetBase
            attributes[key] = value
            try keychain.add(internetPassword(attributes))
        }
        let all = try keychain.copyMatching(ItemQuery(itemClass: .internetPassword, limit: .all))
        #expect(all.count == variants.count + 1)
    }

    @Test func internetPasswordDifferingOnlyInLabelOrAccessibilityIsDuplicate() throws {
        let keychain = try makeKeychain()
        try keychain.add(internetPassword(Self.inetBase.merging([.label: .string("first")]) { $1 }))
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.add(internetPassword(Self.inetBase.merging([.label: .string("second")]) { $1 }))
        }
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.add(internetPassword(Self.inetBase, accessibility: .afterFirstUnlockThisDeviceOnly))
        }
    }

    @Test func absentKeyAttributeEqualsEmptyString() throws {
        let keychain = try makeKeychain()
        try keychain.add(NewItem(itemClass: .genericPassword, attributes: [.service: .string("s")], data: bytes("x")))
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.add(genericPassword(service: "s", account: ""))
        }
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.add(
                NewItem(
                    itemClass: .genericPassword, attributes: [.service: .string("s"), .account: .data([])]))
        }
        #expect(try keychain.secret(genericQuery([.service: .string("s"), .account: .string("")])) == "x")
    }

    @Test func absentServiceAndAccountCollideWithEmptyOnes() throws {
        let keychain = try makeKeychain()
        try keychain.add(NewItem(itemClass: .genericPassword, data: bytes("x")))
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.add(genericPassword(service: "", account: ""))
        }
    }

    @Test func absentPortEqualsZeroAndAbsentTextEqualsEmpty() throws {
        let keychain = try makeKeychain()
        try keychain.add(internetPassword([.server: .string("example.com"), .account: .string("a")]))
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.add(
                internetPassword([
                    .server: .string("example.com"), .account: .string("a"), .port: .number(0), .path: .string(""),
                    .securityDomain: .string(""), .protocol: .string(""), .authenticationType: .string(""),
                ]))
        }
        let found = try keychain.copyMatching(
            ItemQuery(
                itemClass: .internetPassword, attributes: [.server: .string("example.com"), .port: .number(0)]))
        #expect(found.count == 1)
    }

    @Test func duplicateTrapCopyOnServiceAndLabelMissesWhileAddOnServiceAndAccountCollides() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "mail", account: "alice", extra: [.label: .string("Old label")]))
        // The app looks for its item by service and a new label, finds nothing, and adds: that add collides.
        #expect(throws: KeychainError.itemNotFound) {
            try keychain.copyMatching(genericQuery([.service: .string("mail"), .label: .string("New label")]))
        }
        let error = #expect(throws: KeychainError.self) {
            try keychain.add(genericPassword(service: "mail", account: "alice", extra: [.label: .string("New label")]))
        }
        #expect(error?.status == -25299)
        #expect(error?.reason?.contains("acct") == true)
    }

    @Test func duplicateReasonNamesTheKeyButNeverTheSecret() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "mail", account: "alice", secret: "hunter2-original"))
        let error = #expect(throws: KeychainError.self) {
            try keychain.add(genericPassword(service: "mail", account: "alice", secret: "hunter2-new"))
        }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("alice") && text.contains("mail"))
        #expect(!text.contains("hunter2"))
    }

    @Test func stringAndDataWithSameBytesAreTheSameKey() throws {
        let keychain = try makeKeychain()
        try keychain.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.service: .string("s"), .account: .data(bytes("alice"))]))
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.add(genericPassword(service: "s", account: "alice"))
        }
    }
}
