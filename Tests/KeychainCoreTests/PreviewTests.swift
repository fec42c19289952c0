import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// The dry runs behind `security doctor`: the same checks and explanations as the real calls, and no change.
@Suite struct PreviewTests {
    @Test func previewAddReportsACollisionWithoutAdding() throws {
        let keychain = try makeKeychain()
        try keychain.previewAdd(genericPassword(service: "svc", account: "me"))
        #expect(try keychain.count(genericQuery([:])) == 0)
        try keychain.add(genericPassword(service: "svc", account: "me"))
        do {
            try keychain.previewAdd(NewItem(itemClass: .genericPassword, attributes: [.service: .string("svc")]))
            try keychain.previewAdd(genericPassword(service: "svc", account: "me"))
            Issue.record("expected a collision")
        } catch let error as KeychainError {
            #expect(error.status == SecurityStatus.duplicateItem)
            #expect(error.reason?.contains("acct=\"me\", svce=\"svc\"") == true)
        }
        #expect(throws: KeychainError.noSuchAttr) {
            try keychain.previewAdd(NewItem(itemClass: .genericPassword, attributes: [.server: .string("x")]))
        }
    }

    @Test func previewSearchUpdateAndDeleteListPrimaryKeysOnly() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "svc", account: "a", secret: "secret-a"))
        try keychain.add(genericPassword(service: "svc", account: "b", secret: "secret-b"))
        let search = try keychain.previewSearch(genericQuery([.service: .string("svc")], limit: .all))
        #expect(search.items.map { $0[.account] } == [.string("a"), .string("b")])
        #expect(search.items.allSatisfy { $0[.label] == nil && $0[.accessible] == .string("ak") })
        #expect(try keychain.previewSearch(genericQuery([.service: .string("svc")])).items.count == 1)
        let delete = try keychain.previewDelete(genericQuery([.service: .string("svc")], limit: .all))
        #expect(delete.items.count == 2)
        #expect(try keychain.count(genericQuery([:])) == 2)
        let update = try keychain.previewUpdate(
            genericQuery([.account: .string("a")], limit: .all), with: ItemChanges(data: bytes("x")))
        #expect(update.items.count == 1)
        #expect(try keychain.secret(genericQuery([.account: .string("a")])) == "secret-a")
        #expect(try keychain.previewUpdate(genericQuery([:], limit: .all), with: ItemChanges()).items.count == 2)
        do {
            _ = try keychain.previewDelete(
                genericQuery([.service: .string("svc"), .account: .string("c")], limit: .all))
            Issue.record("expected not found")
        } catch let error as KeychainError {
            #expect(error.reason?.contains("the delete's query; nearest item") == true)
        }
    }

    @Test func previewUpdatePredictsAPrimaryKeyCollision() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "svc", account: "a"))
        try keychain.add(genericPassword(service: "svc", account: "b"))
        let toB = ItemChanges(attributes: [.account: .string("b")])
        let error = #expect(throws: KeychainError.self) {
            try keychain.previewUpdate(genericQuery([.account: .string("a")], limit: .all), with: toB)
        }
        #expect(error?.status == SecurityStatus.duplicateItem)
        #expect(error?.reason?.contains("acct=\"b\"") == true)
        // The real update agrees, and the dry run changed nothing.
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.update(genericQuery([.account: .string("a")], limit: .all), with: toB)
        }
        // Both items onto one new key collides too; a label change does not.
        #expect(throws: KeychainError.duplicateItem) {
            try keychain.previewUpdate(
                genericQuery([.service: .string("svc")], limit: .all),
                with: ItemChanges(attributes: [.account: .string("c")]))
        }
        let relabel = try keychain.previewUpdate(
            genericQuery([.service: .string("svc")], limit: .all),
            with: ItemChanges(attributes: [.label: .string("L")]))
        #expect(relabel.items.count == 2)
    }

    /// A dry run refuses what the call refuses: one set of checks serves both.
    @Test func previewDeleteRefusesWhatDeleteRefuses() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "svc", account: "a"))
        var query = genericQuery([.service: .string("svc")], limit: .all)
        query.authentication = ReadAuthentication(ui: .skip)
        #expect(status { _ = try keychain.previewDelete(query) } == SecurityStatus.param)
        #expect(status { _ = try keychain.delete(query) } == SecurityStatus.param)
        #expect(
            status { _ = try keychain.previewDelete(genericQuery([.service: .string("svc")], limit: .one)) }
                == SecurityStatus.param)
    }
}
