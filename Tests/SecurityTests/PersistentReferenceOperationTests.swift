import Foundation
import Security
import Testing

/// Copy, update and delete that name their item by persistent reference take its class from the reference, with
/// or without kSecClass: the other attributes of the dictionaries are read against that class (issue 11).
@Suite struct PersistentReferenceOperationTests {
    enum Kind: String, CaseIterable, Sendable {
        case generic, internet

        var itemClass: CFString { self == .generic ? kSecClassGenericPassword : kSecClassInternetPassword }
    }

    /// Adds an item with attributes of every kind and returns its persistent reference.
    private func add(_ kind: Kind) throws -> Data {
        var add: [String: Any] = [
            kSecClass as String: kind.itemClass,
            kSecAttrAccount as String: "me",
            kSecAttrLabel as String: "old",
            kSecAttrCreator as String: 7,
            kSecValueData as String: Data("pw".utf8),
            kSecReturnPersistentRef as String: true,
        ]
        switch kind {
        case .generic:
            add[kSecAttrService as String] = "svc"
            add[kSecAttrGeneric as String] = Data([1, 2])
        case .internet:
            add[kSecAttrServer as String] = "old.example"
            add[kSecAttrPort as String] = 443
        }
        var result: AnyObject?
        #expect(SecItemAdd(add as CFDictionary, &result) == errSecSuccess)
        return try #require(result as? Data)
    }

    /// The query by `reference`, with kSecClass when `namesClass`.
    private func query(
        _ reference: Data, _ kind: Kind, namesClass: Bool, _ extra: [String: Any] = [:]
    ) -> [String: Any] {
        var query: [String: Any] = [kSecValuePersistentRef as String: reference]
        if namesClass { query[kSecClass as String] = kind.itemClass }
        return query.merging(extra) { $1 }
    }

    private func attributes(_ reference: Data) throws -> [String: Any] {
        var result: AnyObject?
        let query: [String: Any] = [kSecValuePersistentRef as String: reference, kSecReturnAttributes as String: true]
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        return try #require(result as? [String: Any])
    }

    @Test(arguments: Kind.allCases, [false, true])
    func updateByReferenceStoresEveryKindOfValue(kind: Kind, namesClass: Bool) throws {
        try withFreshKeychain {
            let reference = try add(kind)
            var changes: [String: Any] = [
                kSecAttrLabel as String: "new",  // text
                kSecAttrComment as String: Data("note".utf8),  // data given for a text attribute
                kSecAttrCreator as String: 99,  // number
                kSecAttrType as String: 5,  // number
                kSecAttrIsInvisible as String: true,  // Boolean
            ]
            switch kind {
            case .generic: changes[kSecAttrGeneric as String] = Data([9])
            case .internet:
                changes[kSecAttrServer as String] = "new.example"
                changes[kSecAttrPort as String] = 8443
            }
            let update = SecItemUpdate(
                query(reference, kind, namesClass: namesClass) as CFDictionary, changes as CFDictionary)
            #expect(update == errSecSuccess)
            let stored = try attributes(reference)
            #expect(stored[kSecAttrLabel as String] as? String == "new")
            #expect(stored[kSecAttrComment as String] as? Data == Data("note".utf8))
            #expect((stored[kSecAttrCreator as String] as? NSNumber)?.intValue == 99)
            #expect((stored[kSecAttrType as String] as? NSNumber)?.intValue == 5)
            #expect((stored[kSecAttrIsInvisible as String] as? NSNumber)?.boolValue == true)
            #expect(stored[kSecAttrAccount as String] as? String == "me")
            switch kind {
            case .generic:
                #expect(stored[kSecAttrGeneric as String] as? Data == Data([9]))
            case .internet:
                #expect(stored[kSecAttrServer as String] as? String == "new.example")
                #expect((stored[kSecAttrPort as String] as? NSNumber)?.intValue == 8443)
            }
            // The modification date is the keychain's to set, by reference as by class; a creation date given is kept.
            let past = Date(timeIntervalSinceReferenceDate: 1_000)
            let dated = SecItemUpdate(
                query(reference, kind, namesClass: namesClass) as CFDictionary,
                [kSecAttrCreationDate as String: past, kSecAttrModificationDate as String: past] as CFDictionary)
            #expect(dated == errSecSuccess)
            #expect(try attributes(reference)[kSecAttrCreationDate as String] as? Date == past)
            #expect(try attributes(reference)[kSecAttrModificationDate as String] as? Date != past)
        }
    }

    /// iOS refuses a query naming its item by reference and by any attribute too (errSecParam), whether the
    /// attribute would match or not, in a copy and a delete; nothing is deleted.
    @Test(arguments: Kind.allCases, [false, true])
    func copyAndDeleteByReferenceRefuseAttributesBesideIt(kind: Kind, namesClass: Bool) throws {
        try withFreshKeychain {
            let reference = try add(kind)
            let created = try #require(try attributes(reference)[kSecAttrCreationDate as String] as? Date)
            let extras: [[String: Any]] = [
                [kSecAttrLabel as String: "old"],
                [kSecAttrCreator as String: 8],
                [kSecAttrCreationDate as String: created],
                kind == .generic ? [kSecAttrGeneric as String: Data([1, 2])] : [kSecAttrPort as String: 443],
            ]
            for extra in extras {
                let copy = query(reference, kind, namesClass: namesClass, extra)
                #expect(SecItemCopyMatching(copy as CFDictionary, nil) == errSecParam, "\(extra)")
                #expect(SecItemDelete(copy as CFDictionary) == errSecParam, "\(extra)")
            }
            #expect(
                SecItemCopyMatching(query(reference, kind, namesClass: namesClass) as CFDictionary, nil)
                    == errSecSuccess)
            #expect(SecItemDelete(query(reference, kind, namesClass: namesClass) as CFDictionary) == errSecSuccess)
        }
    }
}
