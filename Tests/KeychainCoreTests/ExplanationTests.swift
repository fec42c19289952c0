import Foundation
import Testing

@testable import KeychainCore

/// The reasons attached to failures (issue 5): each names the attribute, class, group or lock state in the way,
/// stays within the caller's groups and never holds a secret.
@Suite struct ExplanationTests {
    static let group = "TEAM1.com.example.app"

    /// The reason `body` fails with, and its status.
    private func failure(_ body: () throws -> Void) -> KeychainError? {
        do {
            try body()
            return nil
        } catch let error as KeychainError {
            return error
        } catch {
            return nil
        }
    }

    @Test func notFoundNamesTheValueThatDiffers() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "mail", account: "alice", secret: "hunter2"))
        let error = failure {
            _ = try keychain.copyMatching(genericQuery([.service: .string("mail"), .account: .string("bob")]))
        }
        #expect(error?.status == SecurityStatus.itemNotFound)
        #expect(
            error?.reason == "no item of class genp in the caller's groups matches the query; "
                + "nearest item (acct=\"alice\", svce=\"mail\", agrp=\"\(Self.group)\", sync=false): "
                + "acct value differs (the item has \"alice\", the query \"bob\")")
        #expect(error?.reason?.contains("hunter2") == false)
    }

    @Test func notFoundNamesADifferenceOnlyInCase() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "Mail", account: "alice"))
        let error = failure {
            _ = try keychain.copyMatching(genericQuery([.service: .string("mail"), .account: .string("alice")]))
        }
        #expect(
            error?.reason?.contains(
                "svce differs only in case (the item has \"Mail\", the query \"mail\"): "
                    + "set kSecMatchCaseInsensitive or fix the case")
                == true)
        #expect(try keychain.count(genericQuery([.service: .string("mail")], caseInsensitive: true)) == 1)
    }

    @Test func notFoundAfterSaveNamesTheSynchronizableFilter() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "api", account: "me", synchronizable: true))
        let error = failure {
            _ = try keychain.copyMatching(genericQuery([.service: .string("api"), .account: .string("me")]))
        }
        #expect(
            error?.reason?.contains(
                "sync=true): synchronizable filter: the item is synchronizable (sync=true), "
                    + "and a query without kSecAttrSynchronizable matches only non-synchronizable items: "
                    + "add kSecAttrSynchronizable: kSecAttrSynchronizableAny") == true)
        let reverse = try makeKeychain()
        try reverse.add(genericPassword(service: "api", account: "me"))
        let other = failure {
            _ = try reverse.copyMatching(genericQuery([.service: .string("api")], synchronizable: .yes))
        }
        #expect(other?.reason?.contains("the item is not synchronizable") == true)
    }

    @Test func notFoundNamesTheAccessGroupThatHoldsTheItem() throws {
        let keychain = try makeKeychain(groups: ["T.shared", "T.app"])
        try keychain.add(genericPassword(service: "svc", account: "me", accessGroup: "T.app"))
        let error = failure {
            _ = try keychain.copyMatching(genericQuery([.service: .string("svc")], accessGroup: "T.shared"))
        }
        #expect(
            error?.reason?.contains(
                "access group: the item is in \"T.app\", another of the caller's groups, "
                    + "and the query names \"T.shared\", which has no such item") == true)
    }

    @Test func notFoundNamesTheOtherPasswordClass() throws {
        let keychain = try makeKeychain()
        try keychain.add(
            NewItem(
                itemClass: .internetPassword, attributes: [.server: .string("example.com"), .account: .string("me")],
                data: bytes("pw")))
        let error = failure {
            _ = try keychain.copyMatching(genericQuery([.service: .string("example.com"), .account: .string("me")]))
        }
        #expect(
            error?.reason == "no item of class genp in the caller's groups matches the query; "
                + "class: an item of class inet in the caller's groups has the query's attributes (srvr for svce), "
                + "but the query asks for class genp")
    }

    @Test func notFoundByUpdateAndDeleteIsExplainedToo() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword(service: "svc", account: "Me"))
        let query = genericQuery([.account: .string("me")], limit: .all)
        let update = failure { try keychain.update(query, with: ItemChanges(data: bytes("new"))) }
        #expect(update?.reason?.hasPrefix("no item of class genp matches the update's query; nearest item") == true)
        #expect(update?.reason?.contains("acct differs only in case") == true)
        let delete = failure { try keychain.delete(query) }
        #expect(delete?.reason?.hasPrefix("no item of class genp matches the delete's query; nearest item") == true)
    }

    @Test func nearestItemsComeFirstAndAreBounded() throws {
        let keychain = try makeKeychain()
        for index in 0..<30 { try keychain.add(genericPassword(service: "svc", account: "user\(index)")) }
        try keychain.add(genericPassword(service: "SVC", account: "target"))
        let error = failure {
            _ = try keychain.copyMatching(genericQuery([.service: .string("svc"), .account: .string("target")]))
        }
        let reason = try #require(error?.reason)
        // 20 candidates at most are examined; 3 are named, the rest counted.
        #expect(reason.components(separatedBy: "nearest item (").count - 1 == 3)
        #expect(reason.contains("17 more nearby item(s) not shown"))
    }

    @Test func noLeakAcrossApps() throws {
        let home = temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let other = try makeKeychain(groups: ["OTHER.com.example.bank"], home: home)
        try other.add(
            genericPassword(
                service: "bank", account: "me", secret: "other-app-secret",
                extra: [.label: .string("Bank Login")]))
        let mine = try makeKeychain(groups: ["MINE.com.example.app"], home: home)
        for query in [
            genericQuery([.service: .string("bank")]),
            genericQuery([.service: .string("BANK"), .account: .string("me")]),
            genericQuery([:], synchronizable: .any), genericQuery([.label: .string("Bank Login")]),
        ] {
            let error = failure { _ = try mine.copyMatching(query) }
            #expect(error?.status == SecurityStatus.itemNotFound)
            let reason = error?.reason ?? ""
            #expect(!reason.contains("OTHER.com.example.bank"))
            #expect(!reason.contains("nearest item"))
            #expect(!reason.contains("other-app-secret"))
        }
        let duplicate = failure { try mine.add(genericPassword(service: "bank", account: "me")) }
        #expect(duplicate == nil)
    }

    @Test func duplicateNamesTheKeyAndWhatTheAddLeftOut() throws {
        let keychain = try makeKeychain()
        // The classic trap: the first save stores no account; a later save with another label collides.
        try keychain.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.service: .string("app"), .label: .string("first")],
                data: bytes("token-one")))
        let error = failure {
            try keychain.add(
                NewItem(
                    itemClass: .genericPassword, attributes: [.service: .string("app"), .label: .string("second")],
                    data: bytes("token-two")))
        }
        #expect(error?.status == SecurityStatus.duplicateItem)
        #expect(
            error?.reason == "an item with the same primary key exists "
                + "(acct=<0 bytes>, svce=\"app\", agrp=\"\(Self.group)\", sync=false); "
                + "the add left out acct (defaulted to empty data, which matches an empty string), so it collides "
                + "with any item stored without it: give it a value, or use SecItemUpdate to change the existing item")
        let full = failure { try keychain.add(genericPassword(service: "app", account: "")) }
        #expect(full?.reason?.hasSuffix("sync=false); use SecItemUpdate to change it") == true)
        #expect(full?.reason?.contains("token") == false)
    }

    @Test func interactionNotAllowedNamesClassStateAndFix() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(0)
        try keychain.addToken("token", .whenUnlocked)
        try keychain.lock()
        let error = failure { _ = try keychain.copyMatching(accountQuery("token", returns: .data)) }
        #expect(error?.status == SecurityStatus.interactionNotAllowed)
        #expect(
            error?.reason == "1 matching item(s) cannot be read now: the keychain is locked; items of class ak "
                + "(available only while unlocked) cannot be used until it is unlocked; fix: an item read in the "
                + "background or while locked needs kSecAttrAccessibleAfterFirstUnlock (move it there with "
                + "SecItemUpdate while unlocked); do not delete the item on this error: it is intact and readable "
                + "again after the unlock")
        // A miss near a locked item says it could not be examined.
        let miss = failure {
            _ = try keychain.copyMatching(genericQuery([.account: .string("token"), .service: .string("other")]))
        }
        #expect(
            miss?.reason?.contains(
                "1 nearby item(s) could not be examined: their protection class is not available now "
                    + "(the keychain is locked)") == true)
    }

    @Test func missingEntitlementNamesTheGroupAndTheCallersGroups() throws {
        let keychain = try makeKeychain(groups: ["T.app", "T.shared"])
        let error = failure { _ = try keychain.copyMatching(genericQuery([:], accessGroup: "T.other")) }
        #expect(error?.status == SecurityStatus.missingEntitlement)
        #expect(
            error?.reason == "the call names access group \"T.other\", which is not among the caller's groups "
                + "[\"T.app\", \"T.shared\"]; check that \"T.other\" is in the entitlements' keychain-access-groups "
                + "(with the team prefix), or leave kSecAttrAccessGroup out to use \"T.app\"")
    }

    @Test func noSuchAttrNamesTheClassAttributes() throws {
        let keychain = try makeKeychain()
        let error = failure { _ = try keychain.copyMatching(genericQuery([.server: .string("x")])) }
        #expect(error?.status == SecurityStatus.noSuchAttr)
        #expect(
            error?.reason == "srvr is not an attribute of class genp; its attributes are acct, agrp, alis, cdat, "
                + "crtr, desc, gena, icmt, invi, labl, mdat, nega, pdmn, svce, sync, type")
    }
}
