import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Invalid requests get Apple's status and change nothing: foreign attributes, wrong types, read-only
/// attributes, unsupported classes and protection, oversized values.
@Suite struct ValidationTests {
    @Test func attributeOfAnotherClassIsNoSuchAttrInEveryOperation() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        let foreign: [AttributeKey: AttributeValue] = [.server: .string("example.com")]
        #expect(status { try keychain.add(genericPassword(account: "x", extra: foreign)) } == -25303)
        #expect(status { _ = try keychain.copyMatching(genericQuery(foreign)) } == -25303)
        #expect(
            status {
                try keychain.update(genericQuery(foreign, limit: .all), with: ItemChanges(data: [1]))
            } == -25303)
        #expect(status { try keychain.delete(genericQuery(foreign, limit: .all)) } == -25303)
        #expect(
            status {
                try keychain.add(NewItem(itemClass: .internetPassword, attributes: [.service: .string("s")]))
            } == -25303)
        #expect(
            status {
                try keychain.add(NewItem(itemClass: .genericPassword, attributes: [AttributeKey("zzzz"): .string("s")]))
            } == -25303)
        #expect(try keychain.count(genericQuery([:])) == 1)
    }

    @Test func wrongValueTypeIsParam() throws {
        let keychain = try makeKeychain()
        let wrong: [[AttributeKey: AttributeValue]] = [
            [.account: .bool(true)], [.service: .date(Date())], [.label: .date(Date())], [.creator: .data([1])],
            [.isInvisible: .date(Date())],
        ]
        for attributes in wrong {
            #expect(
                status { try keychain.add(NewItem(itemClass: .genericPassword, attributes: attributes)) } == -50,
                "add \(attributes)")
            #expect(status { _ = try keychain.copyMatching(genericQuery(attributes)) } == -50, "query \(attributes)")
        }
        #expect(
            status {
                try keychain.add(NewItem(itemClass: .internetPassword, attributes: [.port: .date(Date())]))
            } == -50)
        // As securityd, a text attribute keeps a number it is given (a blob there: iOS takes kSecAttrAccount: 3).
        #expect(
            status { try keychain.add(NewItem(itemClass: .genericPassword, attributes: [.account: .number(3)])) } == 0)
        #expect(try keychain.count(genericQuery([.account: .number(3)])) == 1)
        #expect(try keychain.count(genericQuery([.account: .string("3")])) == 0)
        // As securityd, a number attribute keeps a string it is given (iOS takes kSecAttrPort: "").
        #expect(
            status {
                try keychain.add(NewItem(itemClass: .internetPassword, attributes: [.port: .string("")]))
            } == 0)
        #expect(try keychain.count(genericQuery([:])) == 1)
        // A flag is a number attribute there too: it keeps a string that is no number (invi: "yes").
        #expect(
            status {
                try keychain.add(NewItem(itemClass: .genericPassword, attributes: [.isInvisible: .string("yes")]))
            } == 0)
        #expect(try keychain.count(genericQuery([.isInvisible: .string("yes")])) == 1)
        #expect(try keychain.count(genericQuery([.isInvisible: .bool(true)])) == 0)
    }

    /// As Apple's keychain: an add's dates are its own time whatever it gives; an update keeps a creation date
    /// given and sets the modification date itself.
    @Test func theDatesGivenToAnAddOrUpdateAreTheKeychainsToSet() throws {
        let keychain = try makeKeychain()
        let past = Date(timeIntervalSinceReferenceDate: 1_000)
        try keychain.add(genericPassword(extra: [.creationDate: .date(past), .modificationDate: .date(past)]))
        let dates = { () throws -> (Date?, Date?) in
            let attributes = try keychain.copyMatching(genericQuery([:], returns: .attributes)).first?.attributes
            guard case .date(let created)? = attributes?[.creationDate],
                case .date(let modified)? = attributes?[.modificationDate]
            else { return (nil, nil) }
            return (created, modified)
        }
        let (created, modified) = try dates()
        #expect(try #require(created) > past)
        #expect(try #require(modified) > past)
        try keychain.update(
            genericQuery([:], limit: .all),
            with: ItemChanges(attributes: [.creationDate: .date(past), .modificationDate: .date(past)]))
        let (updatedCreated, updatedModified) = try dates()
        #expect(updatedCreated == past)
        #expect(try #require(updatedModified) > past)
    }

    @Test func identitiesAreJoinedNotStored() throws {
        let keychain = try makeKeychain()
        // An identity's value is a certificate and its key, never secret data; without one it is no identity.
        #expect(status { try keychain.add(NewItem(itemClass: .identity, data: [1])) } == -50)
        #expect(status { try keychain.add(NewItem(itemClass: .identity)) } == -50)
        #expect(status { _ = try keychain.copyMatching(ItemQuery(itemClass: .identity)) } == -25300)
        #expect(status { try keychain.delete(ItemQuery(itemClass: .identity, limit: .all)) } == -25300)
        // Dry runs read one table's rows; an identity has none.
        #expect(status { _ = try keychain.previewSearch(ItemQuery(itemClass: .identity)) } == -4)
    }

    @Test func whenPasscodeSetWithoutPasscodeIsAuthFailed() throws {
        let keychain = try makeKeychain()
        let error = #expect(throws: KeychainError.self) {
            try keychain.add(genericPassword(accessibility: .whenPasscodeSetThisDeviceOnly))
        }
        #expect(error?.status == -25293)
        #expect(try keychain.count(genericQuery([:])) == 0)
        try keychain.add(genericPassword())
        #expect(
            status {
                try keychain.update(
                    genericQuery([:], limit: .all), with: ItemChanges(accessibility: .whenPasscodeSetThisDeviceOnly))
            } == -25293)
    }

    @Test func accessControlWithoutWhatItNeedsIsRefusedAndNotStored() throws {
        let keychain = try makeKeychain()
        // No passcode (biometry, passcode and watch constraints need one), no application password;
        // .privateKeyUsage is for key items only.
        let expected: [(AccessControlFlags, Int32)] = [
            (.userPresence, -25293), (.biometryAny, -25293), (.biometryCurrentSet, -25293), (.devicePasscode, -25293),
            (.companion, -25293), (.privateKeyUsage, -50), (.applicationPassword, -25293),
        ]
        for (flags, code) in expected {
            var item = genericPassword()
            item.accessControl = AccessControlPolicy(accessibility: .whenUnlocked, flags: flags)
            #expect(status { try keychain.add(item) } == code, "flags \(flags.rawValue)")
        }
        #expect(try keychain.count(genericQuery([:])) == 0)
    }

    @Test func accessControlWithoutFlagsSetsItsProtectionClass() throws {
        let keychain = try makeKeychain()
        var item = genericPassword()
        item.accessControl = AccessControlPolicy(accessibility: .afterFirstUnlock, flags: [])
        try keychain.add(item)
        #expect(try keychain.attributes(genericQuery([:]))[.accessible] == .string("ck"))
    }

    @Test func accessibilityConflictingWithAccessControlIsParam() throws {
        let keychain = try makeKeychain()
        for flags: AccessControlFlags in [[], .userPresence] {
            var item = genericPassword(accessibility: .whenUnlocked)
            item.accessControl = AccessControlPolicy(accessibility: .afterFirstUnlock, flags: flags)
            #expect(status { try keychain.add(item) } == -50, "flags \(flags.rawValue)")
        }
        var agreeing = genericPassword(accessibility: .afterFirstUnlock)
        agreeing.accessControl = AccessControlPolicy(accessibility: .afterFirstUnlock, flags: [])
        #expect(status { try keychain.add(agreeing) } == 0)
    }

    @Test func synchronizableWithConstraintsIsParamBeforeUnimplemented() throws {
        let keychain = try makeKeychain()
        var item = genericPassword(synchronizable: true)
        item.accessControl = AccessControlPolicy(accessibility: .whenUnlocked, flags: .userPresence)
        #expect(status { try keychain.add(item) } == -50)
    }

    @Test func dataAboveTheBoundIsParam() throws {
        let keychain = try makeKeychain()
        var item = genericPassword()
        item.data = [UInt8](repeating: 0x41, count: Keychain.maximumDataSize + 1)
        #expect(status { try keychain.add(item) } == -50)
        try keychain.add(genericPassword())
        #expect(
            status {
                try keychain.update(genericQuery([:], limit: .all), with: ItemChanges(data: item.data))
            } == -50)
        #expect(try keychain.secret(genericQuery([:])) == "secret")
    }

    @Test func dataAtTheBoundIsStoredIntact() throws {
        let keychain = try makeKeychain()
        var item = genericPassword()
        var big = [UInt8](repeating: 0x5A, count: Keychain.maximumDataSize)
        for offset in stride(from: 0, to: big.count, by: 4093) { big[offset] = UInt8(truncatingIfNeeded: offset) }
        item.data = big
        try keychain.add(item)
        #expect(try keychain.copyMatching(genericQuery([:], returns: .data))[0].data?.bytes == big)
    }

    @Test func attributeAboveTheBoundIsParamEverywhere() throws {
        let keychain = try makeKeychain()
        let huge = String(repeating: "x", count: Keychain.maximumAttributeSize + 1)
        let hugeData = [UInt8](repeating: 1, count: Keychain.maximumAttributeSize + 1)
        #expect(status { try keychain.add(genericPassword(account: huge)) } == -50)
        #expect(status { try keychain.add(genericPassword(extra: [.generic: .data(hugeData)])) } == -50)
        #expect(status { _ = try keychain.copyMatching(genericQuery([.account: .string(huge)])) } == -50)
        try keychain.add(genericPassword())
        #expect(
            status {
                try keychain.update(
                    genericQuery([:], limit: .all), with: ItemChanges(attributes: [.label: .string(huge)]))
            } == -50)
        #expect(try keychain.count(genericQuery([:])) == 1)
    }

    @Test func attributeAtTheBoundIsAccepted() throws {
        let keychain = try makeKeychain()
        let largest = String(repeating: "y", count: Keychain.maximumAttributeSize)
        try keychain.add(genericPassword(account: largest))
        #expect(try keychain.attributes(genericQuery([.account: .string(largest)]))[.account] == .string(largest))
    }

    @Test func operationsAfterCloseAreNotAvailable() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        keychain.close()
        #expect(status { _ = try keychain.copyMatching(genericQuery([:])) } == -25291)
        #expect(status { try keychain.add(genericPassword(account: "b")) } == -25291)
    }
}
