import Foundation
import Security
import Testing

/// A primary-key attribute an add leaves out reads back as Apple's default for its column: securityd's text
/// columns (`acct`, `svce`, `sdmn`, `srvr`, `atyp`, `path`, `atag`) are blobs with the `E` flag, whose default is an
/// empty CFData (`SecItemSchema.c`, `SecDbItemCopyValue` in `SecDbItem.c`). So on a device an item added without
/// an account comes back with `acct = <>`, and `attributes[kSecAttrAccount] as? String` is nil; a given "" stays
/// the string "". Empty data and "" are still one primary key, and one search finds both.
@Suite struct AbsentAttributeDefaultsTests {
    private func attributes(_ query: [String: Any]) -> (OSStatus, [[String: Any]]) {
        var result: AnyObject?
        var search = query
        search[kSecReturnAttributes as String] = true
        search[kSecMatchLimit as String] = kSecMatchLimitAll
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        return (status, result as? [[String: Any]] ?? [])
    }

    /// The value at `key` is empty data, and not a string.
    private func isEmptyData(_ value: Any?) -> Bool {
        (value as? Data) == Data() && !(value is String) && (value as? String) == nil
    }

    @Test func aGenericPasswordWithoutAnAccountReadsItBackAsEmptyData() throws {
        try withFreshKeychain {
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.example.api",
                kSecValueData as String: Data("token".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let (status, found) = attributes([
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.example.api",
            ])
            #expect(status == errSecSuccess)
            #expect(found.count == 1)
            let item = try #require(found.first)
            #expect(isEmptyData(item[kSecAttrAccount as String]))
            #expect(item[kSecAttrAccount as String] as? String == nil)
            #expect(item[kSecAttrService as String] as? String == "com.example.api")
        }
    }

    @Test func aGenericPasswordWithoutAServiceOrWithNeitherReadsThemBackAsEmptyData() throws {
        try withFreshKeychain {
            let onlyAccount: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice",
                kSecValueData as String: Data("one".utf8),
            ]
            #expect(SecItemAdd(onlyAccount as CFDictionary, nil) == errSecSuccess)
            let neither: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrLabel as String: "bare",
                kSecValueData as String: Data("two".utf8),
            ]
            #expect(SecItemAdd(neither as CFDictionary, nil) == errSecSuccess)
            let (_, withAccount) = attributes([
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice",
            ])
            let first = try #require(withAccount.first)
            #expect(first[kSecAttrAccount as String] as? String == "alice")
            #expect(isEmptyData(first[kSecAttrService as String]))
            let (_, bare) = attributes([kSecClass as String: kSecClassGenericPassword, kSecAttrLabel as String: "bare"])
            let second = try #require(bare.first)
            #expect(isEmptyData(second[kSecAttrAccount as String]))
            #expect(isEmptyData(second[kSecAttrService as String]))
        }
    }

    @Test func anInternetPasswordReadsItsAbsentBlobAttributesBackAsEmptyData() throws {
        try withFreshKeychain {
            let add: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
                kSecValueData as String: Data("pw".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let (status, found) = attributes([
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
            ])
            #expect(status == errSecSuccess)
            let item = try #require(found.first)
            #expect(item[kSecAttrServer as String] as? String == "example.com")
            for key in [kSecAttrAccount, kSecAttrSecurityDomain, kSecAttrAuthenticationType, kSecAttrPath] {
                #expect(isEmptyData(item[key as String]), "\(key)")
            }
            // The port is a number defaulting to 0, as on Apple's. The protocol stays "" here (Apple's is a number
            // defaulting to 0, which would change the primary-key digest of every existing item).
            #expect((item[kSecAttrPort as String] as? NSNumber)?.intValue == 0)
            #expect(item[kSecAttrProtocol as String] as? String == "")

            let noServer: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecAttrAccount as String: "bob",
                kSecValueData as String: Data("pw".utf8),
            ]
            #expect(SecItemAdd(noServer as CFDictionary, nil) == errSecSuccess)
            let (_, bob) = attributes([
                kSecClass as String: kSecClassInternetPassword, kSecAttrAccount as String: "bob",
            ])
            let other = try #require(bob.first)
            #expect(other[kSecAttrAccount as String] as? String == "bob")
            #expect(isEmptyData(other[kSecAttrServer as String]))
        }
    }

    @Test func aGivenEmptyAccountStaysTheStringItWas() throws {
        try withFreshKeychain {
            #expect(addPassword(service: "svc", account: "", secret: "x") == errSecSuccess)
            let (_, found) = attributes([kSecClass as String: kSecClassGenericPassword])
            let item = try #require(found.first)
            #expect(item[kSecAttrAccount as String] as? String == "")
            #expect(!(item[kSecAttrAccount as String] is Data))
        }
    }

    /// Code that lists the accounts of a service, as iOS apps write it, sees no account for an item that has none.
    @Test func listingAccountsAsStringsSkipsAnItemAddedWithoutOne() throws {
        try withFreshKeychain {
            #expect(addPassword(service: "svc", account: "alice", secret: "a") == errSecSuccess)
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
                kSecValueData as String: Data("b".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let (status, found) = attributes([
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
            ])
            #expect(status == errSecSuccess)
            #expect(found.count == 2)
            #expect(found.compactMap { $0[kSecAttrAccount as String] as? String } == ["alice"])
        }
    }

    /// An absent account and a given "" are one primary key whichever is added first, and a search for "" (or
    /// for empty data) finds both kinds of items.
    @Test func anAbsentAndAnEmptyAccountCollideInBothOrdersAndOneSearchFindsBoth() throws {
        let withoutAccount: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
            kSecValueData as String: Data("absent".utf8),
        ]
        try withFreshKeychain {
            #expect(SecItemAdd(withoutAccount as CFDictionary, nil) == errSecSuccess)
            #expect(addPassword(service: "svc", account: "", secret: "given") == errSecDuplicateItem)
            var asData = withoutAccount
            asData[kSecAttrAccount as String] = Data()
            #expect(SecItemAdd(asData as CFDictionary, nil) == errSecDuplicateItem)
        }
        try withFreshKeychain {
            #expect(addPassword(service: "svc", account: "", secret: "given") == errSecSuccess)
            #expect(SecItemAdd(withoutAccount as CFDictionary, nil) == errSecDuplicateItem)
            // The item of another service without an account, beside the one with "".
            var other = withoutAccount
            other[kSecAttrService as String] = "other"
            #expect(SecItemAdd(other as CFDictionary, nil) == errSecSuccess)
            for account in ["" as Any, Data() as Any] {
                let (status, found) = attributes([
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                ])
                #expect(status == errSecSuccess)
                #expect(found.count == 2)
                let byService = Dictionary(
                    uniqueKeysWithValues: found.map { ($0[kSecAttrService as String] as? String ?? "?", $0) })
                #expect(byService["svc"]?[kSecAttrAccount as String] as? String == "")
                #expect(isEmptyData(byService["other"]?[kSecAttrAccount as String]))
            }
            // A data-only lookup by "" reads the secret of the item stored without an account.
            var result: AnyObject?
            let lookup: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "other",
                kSecAttrAccount as String: "", kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(lookup as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("absent".utf8))
        }
    }

    @Test func aKeyAddedWithoutATagReadsItBackAsEmptyData() throws {
        try withFreshKeychain {
            var error: Unmanaged<CFError>?
            let parameters: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256,
                kSecPrivateKeyAttrs: [kSecAttrIsPermanent: true, kSecAttrLabel: "untagged"] as [CFString: Any],
            ]
            _ = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, &error))
            let (status, found) = attributes([
                kSecClass as String: kSecClassKey, kSecAttrLabel as String: "untagged",
            ])
            #expect(status == errSecSuccess)
            let item = try #require(found.first)
            #expect(isEmptyData(item[kSecAttrApplicationTag as String]))
        }
    }
}
