import Foundation
import Security
import Testing

/// Number attributes (kSecAttrPort, kSecAttrCreator, kSecAttrType) take every numeric form Apple's securityd
/// takes: numbers (0 and 1 included, which bridge to Bool on Linux), Booleans, and strings (issue 11).
@Suite struct NumberAttributeTests {
    private let server: [String: Any] = [
        kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
        kSecAttrAccount as String: "me",
    ]

    private func add(_ extra: [String: Any]) -> OSStatus {
        let add = server.merging(extra.merging([kSecValueData as String: Data("pw".utf8)]) { $1 }) { $1 }
        return SecItemAdd(add as CFDictionary, nil)
    }

    private func attributes(_ extra: [String: Any]) -> (OSStatus, [String: Any]?) {
        var result: AnyObject?
        let query = server.merging(extra.merging([kSecReturnAttributes as String: true]) { $1 }) { $1 }
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result as? [String: Any])
    }

    @Test func zeroAndOneAreNumbersInAddsAndQueries() throws {
        try withFreshKeychain {
            let numbers: [String: Any] = [
                kSecAttrPort as String: 0, kSecAttrCreator as String: 1, kSecAttrType as String: 0,
            ]
            #expect(add(numbers) == errSecSuccess)
            let (status, stored) = attributes(numbers)
            #expect(status == errSecSuccess)
            #expect((stored?[kSecAttrPort as String] as? NSNumber)?.intValue == 0)
            #expect((stored?[kSecAttrCreator as String] as? NSNumber)?.intValue == 1)
            #expect((stored?[kSecAttrType as String] as? NSNumber)?.intValue == 0)
            #expect(attributes([kSecAttrCreator as String: NSNumber(value: 1)]).0 == errSecSuccess)
            #expect(attributes([kSecAttrCreator as String: Int32(1)]).0 == errSecSuccess)
            // securityd reads a Boolean as 0 or 1, and a decimal string as its number.
            #expect(attributes([kSecAttrCreator as String: true]).0 == errSecSuccess)
            #expect(attributes([kSecAttrCreator as String: "1"]).0 == errSecSuccess)
            #expect(attributes([kSecAttrCreator as String: 2]).0 == errSecItemNotFound)
            // The port was part of the primary key: 0 is the value an absent port takes.
            #expect(add([kSecAttrCreator as String: 5]) == errSecDuplicateItem)
            let update = SecItemUpdate(
                server as CFDictionary, [kSecAttrType as String: 1, kSecAttrCreator as String: 0] as CFDictionary)
            #expect(update == errSecSuccess)
            #expect(attributes([kSecAttrType as String: 1, kSecAttrCreator as String: false]).0 == errSecSuccess)
        }
    }

    @Test func genericPasswordsTakeZeroAndOneToo() throws {
        try withFreshKeychain {
            #expect(
                addPassword(
                    service: "svc", account: "me", secret: "pw",
                    extra: [
                        kSecAttrCreator as String: 1, kSecAttrType as String: 0,
                    ]) == errSecSuccess)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrCreator as String: 1,
                kSecAttrType as String: 0,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, nil) == errSecSuccess)
        }
    }

    /// securityd's flags (`invi`, `nega`, a key's `perm`, `sign`, …) are number attributes, read by `copyNumber`
    /// (`SecDbItem.c`) as any other: a string that prints back as the same 32-bit integer is that number, any
    /// other string is kept as given. `sync` takes the same decimal strings (`copyNumber` too).
    @Test func flagAttributesTakeStringsAsSecuritydDoes() throws {
        try withFreshKeychain {
            let flags: [String: Any] = [kSecAttrIsInvisible as String: "1", kSecAttrIsNegative as String: "0"]
            #expect(addPassword(service: "flags", account: "numeric", secret: "pw", extra: flags) == errSecSuccess)
            let base: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "flags",
                kSecReturnAttributes as String: true,
            ]
            func find(_ extra: [String: Any]) -> (OSStatus, [String: Any]?) {
                var result: AnyObject?
                let status = SecItemCopyMatching(base.merging(extra) { $1 } as CFDictionary, &result)
                return (status, result as? [String: Any])
            }
            let (status, numeric) = find([kSecAttrIsInvisible as String: true])
            #expect(status == errSecSuccess)
            #expect((numeric?[kSecAttrIsInvisible as String] as? NSNumber)?.intValue == 1)
            #expect((numeric?[kSecAttrIsNegative as String] as? NSNumber)?.intValue == 0)
            #expect(find([kSecAttrIsInvisible as String: "1", kSecAttrIsNegative as String: "0"]).0 == errSecSuccess)
            // Not the decimal form of a number: kept as the string, found only by it.
            let kept = [kSecAttrIsInvisible as String: "yes"]
            #expect(addPassword(service: "flags", account: "kept", secret: "pw", extra: kept) == errSecSuccess)
            let (byString, stored) = find([kSecAttrAccount as String: "kept", kSecAttrIsInvisible as String: "yes"])
            #expect(byString == errSecSuccess)
            #expect(stored?[kSecAttrIsInvisible as String] as? String == "yes")
            #expect(
                find([kSecAttrAccount as String: "kept", kSecAttrIsInvisible as String: true]).0 == errSecItemNotFound)
            // A key's flags are read alike (nothing stored: not found, not errSecParam).
            let keys: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrIsPermanent as String: "1"]
            #expect(SecItemCopyMatching(keys as CFDictionary, nil) == errSecItemNotFound)
            // sync: "1" and "0" are the numbers 1 and 0.
            let synced = [kSecAttrSynchronizable as String: "1"]
            #expect(addPassword(service: "flags", account: "synced", secret: "pw", extra: synced) == errSecSuccess)
            let (syncStatus, syncedItem) = find([kSecAttrSynchronizable as String: "1"])
            #expect(syncStatus == errSecSuccess)
            #expect(syncedItem?[kSecAttrAccount as String] as? String == "synced")
            #expect(
                find([kSecAttrAccount as String: "synced", kSecAttrSynchronizable as String: "0"]).0
                    == errSecItemNotFound)
        }
    }

    /// Where securityd takes no Boolean, none is accepted: text and data attributes, and kSecMatchLimit.
    @Test func booleansStayRefusedWhereAppleRefusesThem() throws {
        try withFreshKeychain {
            #expect(add([kSecAttrSecurityDomain as String: true]) == errSecParam)
            #expect(add([kSecAttrLabel as String: false]) == errSecParam)
            #expect(add([:]) == errSecSuccess)
            #expect(attributes([kSecMatchLimit as String: true]).0 == errSecParam)
            #expect(attributes([kSecMatchLimit as String: 1]).0 == errSecSuccess)
        }
    }

    /// securityd keeps a number given for a text or data attribute (its blob attributes) as that number: an
    /// account that is a user id is stored, found by the same number (not by its digits as a string) and read back
    /// as a number.
    @Test func aNumberForATextAttributeIsKeptAsTheNumber() throws {
        try withFreshKeychain {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "ids",
                kSecAttrAccount as String: 42, kSecAttrLabel as String: 7, kSecValueData as String: Data("pw".utf8),
            ]
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecDuplicateItem)
            var found: AnyObject?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: 42,
                kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            let attributes = found as? [String: Any]
            #expect((attributes?[kSecAttrAccount as String] as? NSNumber)?.intValue == 42)
            #expect(attributes?[kSecAttrAccount as String] is String == false)
            #expect((attributes?[kSecAttrLabel as String] as? NSNumber)?.intValue == 7)
            let byDigits: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "42",
            ]
            #expect(SecItemCopyMatching(byDigits as CFDictionary, nil) == errSecItemNotFound)
            #expect(add([kSecAttrLabel as String: 1.5]) == errSecParam)
            #expect(add([kSecAttrPath as String: 1]) == errSecSuccess)
        }
    }

    /// SecItemTests' testBadPort: iOS accepts a port given as a non-numeric string. Like securityd (`copyNumber`),
    /// the string is kept as given (a distinct value in the primary key and in matching) and reads back as that
    /// string, from the item's sealed copy; a four-character code given as a string comes back as itself.
    @Test func aNonNumericPortStringIsAcceptedAsOnIOS() throws {
        try withFreshKeychain {
            #expect(add([kSecAttrPort as String: ""]) == errSecSuccess)
            let (status, stored) = attributes([kSecAttrPort as String: ""])
            #expect(status == errSecSuccess)
            #expect(stored?[kSecAttrPort as String] as? String == "")
            #expect(add([kSecAttrCreator as String: "abcd", kSecAttrAccount as String: "code"]) == errSecSuccess)
            let (_, coded) = attributes([kSecAttrAccount as String: "code"])
            #expect(coded?[kSecAttrCreator as String] as? String == "abcd")
            #expect(add([kSecAttrPort as String: ""]) == errSecDuplicateItem)
            #expect(attributes([kSecAttrPort as String: 0]).0 == errSecItemNotFound)
            #expect(add([kSecAttrPort as String: 0]) == errSecSuccess)
            // A decimal string is the number itself.
            #expect(add([kSecAttrPort as String: "8443"]) == errSecSuccess)
            let (byNumber, numbered) = attributes([kSecAttrPort as String: 8443])
            #expect(byNumber == errSecSuccess)
            #expect((numbered?[kSecAttrPort as String] as? NSNumber)?.intValue == 8443)
        }
    }
}
