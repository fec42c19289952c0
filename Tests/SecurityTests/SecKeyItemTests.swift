import Foundation
import Security
import Testing

/// Keys as keychain items through Apple's API: `SecKeyCreateRandomKey` with `kSecAttrIsPermanent`, `SecItemAdd`
/// with `kSecValueRef`, look-ups by application tag returning a `SecKey`, data and attributes, Apple's primary key.
@Suite struct SecKeyItemTests {
    static let tag = Data("com.example.keys.signing".utf8)

    private func lookUp(_ query: [CFString: Any]) -> (OSStatus, AnyObject?) {
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    private func sign(_ key: SecKey, _ message: Data) throws -> Data {
        var error: Unmanaged<CFError>?
        guard
            let signature = SecKeyCreateSignature(
                key, .ecdsaSignatureMessageX962SHA256, message as CFData, &error)
        else { throw KeyFixtureError.failed(error?.takeRetainedValue()) }
        return signature as Data
    }

    private func verifies(_ publicKey: SecKey, _ message: Data, _ signature: Data) -> Bool {
        SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData, signature as CFData, nil)
    }

    /// What iOS apps do: make a permanent key with a tag once, later find it by the tag and sign.
    @Test func aPermanentKeyIsFoundByItsTagAndSigns() throws {
        try withFreshKeychain {
            var error: Unmanaged<CFError>?
            let parameters: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256,
                kSecPrivateKeyAttrs: [
                    kSecAttrIsPermanent: true, kSecAttrApplicationTag: Self.tag,
                    kSecAttrLabel: "Signing key",
                ] as [CFString: Any],
            ]
            let made = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, &error))
            let publicKey = try KeyFixtures.publicKey(made)
            let (status, result) = lookUp([
                kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag,
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecReturnRef: true,
            ])
            #expect(status == errSecSuccess)
            let key = try #require(result as? SecKey)
            #expect(key == made)
            let message = Data("request body".utf8)
            #expect(verifies(publicKey, message, try sign(key, message)))
            // Only the private key was stored.
            let (_, all) = lookUp([kSecClass: kSecClassKey, kSecMatchLimit: kSecMatchLimitAll, kSecReturnRef: true])
            #expect((all as? [SecKey])?.count == 1)
        }
    }

    @Test func topLevelPermanenceStoresBothHalves() throws {
        try withFreshKeychain {
            var error: Unmanaged<CFError>?
            let parameters: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048, kSecAttrIsPermanent: true,
                kSecAttrApplicationTag: Self.tag,
            ]
            let made = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, &error))
            let (status, result) = lookUp([
                kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag, kSecAttrKeyClass: kSecAttrKeyClassPublic,
                kSecReturnRef: true,
            ])
            #expect(status == errSecSuccess)
            #expect(result as? SecKey == SecKeyCopyPublicKey(made))
            let (_, all) = lookUp([kSecClass: kSecClassKey, kSecMatchLimit: kSecMatchLimitAll, kSecReturnRef: true])
            #expect((all as? [SecKey])?.count == 2)
        }
    }

    @Test func aFailedStoreReturnsNoKeyAndTheAddsStatus() throws {
        try withFreshKeychain {
            var error: Unmanaged<CFError>?
            let parameters: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                kSecPrivateKeyAttrs: [kSecAttrIsPermanent: true, kSecAttrAccessGroup: "NOT.mine"] as [CFString: Any],
            ]
            #expect(SecKeyCreateRandomKey(parameters as CFDictionary, &error) == nil)
            #expect(KeyFixtures.status(error)?.code == Int(errSecMissingEntitlement))
            #expect(lookUp([kSecClass: kSecClassKey]).0 == errSecItemNotFound)
        }
    }

    @Test func addByValueRefAndApplesPrimaryKey() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        try withFreshKeychain {
            // kSecValueRef alone names the class.
            #expect(
                SecItemAdd([kSecValueRef: key, kSecAttrApplicationTag: Self.tag] as CFDictionary, nil)
                    == errSecSuccess)
            let again: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecValueRef: key, kSecAttrApplicationTag: Self.tag,
                kSecAttrLabel: "another label",
            ]
            #expect(SecItemAdd(again as CFDictionary, nil) == errSecDuplicateItem)
            // Another tag is another item.
            #expect(
                SecItemAdd([kSecValueRef: key, kSecAttrApplicationTag: Data("t2".utf8)] as CFDictionary, nil)
                    == errSecSuccess)
            // A key added as a password, or a password class with a key, is refused.
            #expect(
                SecItemAdd([kSecClass: kSecClassGenericPassword, kSecValueRef: key] as CFDictionary, nil)
                    == errSecParam)
            #expect(SecItemAdd([kSecValueRef: "not a key"] as CFDictionary, nil) == errSecParam)
        }
    }

    /// Apple's SecItemAdd (SecItem.m, SecItemAttributesPrepare) fills in from a kSecValueRef only the attributes
    /// the caller left out: a kSecAttrKeyClass, kSecAttrKeyType or kSecAttrKeySizeInBits of the caller's is stored as
    /// given. The item is what its attributes say, as on iOS, where a reference is made from them.
    @Test func theCallersAttributesWinOverTheKeysOwn() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        try withFreshKeychain {
            let sized: [CFString: Any] = [
                kSecValueRef: key, kSecAttrApplicationTag: Self.tag, kSecAttrKeySizeInBits: 512,
            ]
            #expect(SecItemAdd(sized as CFDictionary, nil) == errSecSuccess)
            let query: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag, kSecReturnAttributes: true,
                kSecReturnRef: true,
            ]
            let (status, found) = lookUp(query)
            #expect(status == errSecSuccess)
            let attributes = try #require(found as? [String: Any])
            #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == 512)
            #expect(attributes[kSecAttrEffectiveKeySize as String] as? Int == 256)
            #expect(attributes[kSecAttrKeyClass as String] as? NSNumber == 1)
            #expect(attributes[kSecValueRef as String] as? SecKey == key)

            let other = Data("com.example.keys.public".utf8)
            let asPublic: [CFString: Any] = [
                kSecValueRef: key, kSecAttrApplicationTag: other, kSecAttrKeyClass: kSecAttrKeyClassPublic,
                kSecAttrKeyType: kSecAttrKeyTypeRSA,
            ]
            #expect(SecItemAdd(asPublic as CFDictionary, nil) == errSecSuccess)
            let (_, stored) = lookUp([
                kSecClass: kSecClassKey, kSecAttrApplicationTag: other, kSecReturnAttributes: true,
                kSecReturnData: true,
            ])
            let storedAttributes = try #require(stored as? [String: Any])
            #expect(storedAttributes[kSecAttrKeyClass as String] as? NSNumber == 0)
            #expect(storedAttributes[kSecAttrKeyType as String] as? NSNumber == 42)
            #expect(storedAttributes[kSecValueData as String] as? Data == (try KeyFixtures.external(key)))
        }
    }

    /// On Apple, a kSecValueRef in attributesToUpdate is expanded into its item's attributes, kSecClass among
    /// them, and securityd refuses the class in an update: errSecNoSuchAttr (-25303), nothing changed.
    @Test func aReferenceInAttributesToUpdateIsErrSecNoSuchAttr() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let replacement = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        try withFreshKeychain {
            #expect(
                SecItemAdd([kSecValueRef: key, kSecAttrApplicationTag: Self.tag] as CFDictionary, nil)
                    == errSecSuccess)
            let query: [CFString: Any] = [kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag]
            #expect(
                SecItemUpdate(query as CFDictionary, [kSecValueRef: replacement] as CFDictionary) == errSecNoSuchAttr)
            #expect(
                SecItemUpdate(query as CFDictionary, [kSecValueRef: key, kSecAttrLabel: "x"] as CFDictionary)
                    == errSecNoSuchAttr)
            let (_, found) = lookUp(query.merging([kSecReturnRef: true, kSecReturnAttributes: true]) { $1 })
            let attributes = try #require(found as? [String: Any])
            #expect(attributes[kSecValueRef as String] as? SecKey == key)
            #expect(attributes[kSecAttrLabel as String] == nil)
        }
    }

    @Test func dataAndAttributesAreApples() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 384)
        let external = try KeyFixtures.external(key)
        let publicExternal = try KeyFixtures.external(try KeyFixtures.publicKey(key))
        try withFreshKeychain {
            #expect(
                SecItemAdd(
                    [kSecValueRef: key, kSecAttrApplicationTag: Self.tag, kSecAttrLabel: "L"]
                        as CFDictionary, nil) == errSecSuccess)
            let query: [CFString: Any] = [kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag]
            let (dataStatus, data) = lookUp(query.merging([kSecReturnData: true]) { $1 })
            #expect(dataStatus == errSecSuccess)
            #expect(data as? Data == external)
            let (_, found) = lookUp(query.merging([kSecReturnAttributes: true]) { $1 })
            let attributes = try #require(found as? [String: Any])
            #expect(attributes[kSecAttrKeyClass as String] as? NSNumber == 1)
            #expect(attributes[kSecAttrKeyType as String] as? NSNumber == 73)
            #expect(attributes[kSecAttrKeySizeInBits as String] as? NSNumber == 384)
            #expect(attributes[kSecAttrApplicationTag as String] as? Data == Self.tag)
            #expect(attributes[kSecAttrLabel as String] as? String == "L")
            #expect(attributes[kSecAttrCanSign as String] as? Bool == true)
            #expect(attributes[kSecAttrCanVerify as String] as? Bool == false)
            #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
            #expect(attributes[kSecAttrAccessGroup as String] as? String == "TEAM1.com.example.app")
            #expect(attributes[kSecValueData as String] == nil)
            let label = try #require(attributes[kSecAttrApplicationLabel as String] as? Data)
            #expect(label.count == 20)
            // klbl is the SHA-1 of the public key, so a look-up by it finds the key too.
            let (byLabel, _) = lookUp([kSecClass: kSecClassKey, kSecAttrApplicationLabel: label])
            #expect(byLabel == errSecSuccess)
            #expect(!publicExternal.isEmpty)
            // Reference and attributes together: the dictionary carries the key under v_Ref.
            let (_, both) = lookUp(query.merging([kSecReturnRef: true, kSecReturnAttributes: true]) { $1 })
            let dictionary = try #require(both as? [String: Any])
            #expect(dictionary[kSecValueRef as String] as? SecKey == key)
            #expect(dictionary[kSecClass as String] as? String == kSecClassKey as String)
        }
    }

    @Test func anRSAKeyAddedAsDataComesBackAsAKey() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let external = try KeyFixtures.external(key)
        try withFreshKeychain {
            let add: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
                kSecAttrApplicationTag: Self.tag, kSecValueData: external,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let (status, result) = lookUp([
                kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag, kSecReturnRef: true,
            ])
            #expect(status == errSecSuccess)
            #expect(result as? SecKey == key)
            // Nothing is derived from the bytes, as on iOS: the size and application label are the defaults.
            let (_, attributes) = lookUp([kSecClass: kSecClassKey, kSecReturnAttributes: true])
            let dictionary = try #require(attributes as? [String: Any])
            #expect(dictionary[kSecAttrKeySizeInBits as String] as? NSNumber == 0)
            #expect(dictionary[kSecAttrApplicationLabel as String] as? Data == Data())
        }
    }

    /// iOS stores a key item's kSecValueData as given, whatever the bytes: a database's encryption key of 64
    /// random bytes, with a tag and a size and nothing else (the pattern of Realm's encryption example).
    @Test func anyBytesAddedAsAKeyAreStoredAndReadBack() throws {
        let bytes = Data((0..<64).map { _ in UInt8.random(in: 0...255) })
        try withFreshKeychain {
            let query: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("io.example.db-key".utf8),
                kSecAttrKeySizeInBits: 512,
            ]
            #expect(SecItemAdd(query.merging([kSecValueData: bytes]) { $1 } as CFDictionary, nil) == errSecSuccess)
            let (status, found) = lookUp(query.merging([kSecReturnData: true]) { $1 })
            #expect(status == errSecSuccess)
            #expect(found as? Data == bytes)
            // The same tag, size and (default) class and type: the same item, whatever the bytes.
            let other = Data(repeating: 1, count: 64)
            #expect(
                SecItemAdd(query.merging([kSecValueData: other]) { $1 } as CFDictionary, nil) == errSecDuplicateItem)
            // Bytes that are no key of the type named are stored too.
            let named: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeyClass: kSecAttrKeyClassPublic, kSecAttrApplicationTag: Data("junk".utf8),
                kSecValueData: Data([1, 2, 3]),
            ]
            #expect(SecItemAdd(named as CFDictionary, nil) == errSecSuccess)
        }
    }

    /// securityd's data attributes (a key's `klbl`; a certificate's `subj`, `slnr`, `skid`, `pkhh`) are converted by
    /// `copyData` (`SecDbItem.c`): a string becomes its UTF-8 bytes, a number its 32-bit value's bytes in the
    /// device's order (little-endian), and they read back as data. A certificate's `issr` must be data: Apple's
    /// client casts it to CFData to normalize it (`SecItemAttributesPrepare`, `SecItem.m`), errSecParam otherwise.
    @Test func dataAttributesGivenAStringOrANumberAreStoredAsData() throws {
        try withFreshKeychain {
            let add: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("io.example.labelled".utf8),
                kSecAttrApplicationLabel: "db-key", kSecValueData: Data(repeating: 7, count: 32),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let (status, found) = lookUp([
                kSecClass: kSecClassKey, kSecAttrApplicationLabel: "db-key", kSecReturnAttributes: true,
            ])
            #expect(status == errSecSuccess)
            let attributes = try #require(found as? [String: Any])
            #expect(attributes[kSecAttrApplicationLabel as String] as? Data == Data("db-key".utf8))
            #expect(attributes[kSecAttrApplicationLabel as String] is String == false)
            #expect(
                lookUp([kSecClass: kSecClassKey, kSecAttrApplicationLabel: Data("db-key".utf8)]).0 == errSecSuccess)
            let numbered: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("io.example.numbered".utf8),
                kSecAttrApplicationLabel: 258, kSecValueData: Data(repeating: 8, count: 32),
            ]
            #expect(SecItemAdd(numbered as CFDictionary, nil) == errSecSuccess)
            let (_, byNumber) = lookUp([
                kSecClass: kSecClassKey, kSecAttrApplicationLabel: Data([2, 1, 0, 0]), kSecReturnAttributes: true,
            ])
            #expect((byNumber as? [String: Any])?[kSecAttrApplicationLabel as String] as? Data == Data([2, 1, 0, 0]))
            let certificates: [CFString: Any] = [kSecClass: kSecClassCertificate, kSecAttrSerialNumber: "01"]
            #expect(lookUp(certificates).0 == errSecItemNotFound)
            #expect(lookUp([kSecClass: kSecClassCertificate, kSecAttrIssuer: "CN=Example"]).0 == errSecParam)
            #expect(lookUp([kSecClass: kSecClassCertificate, kSecAttrIssuer: 7]).0 == errSecParam)
        }
    }

    /// Two different public keys added as data with the same tag, class and type are one item on iOS (nothing
    /// tells them apart but the bytes, which are not an attribute): the second add is a duplicate, so the usual
    /// "add, else update" keeps the new key rather than finding the old one.
    @Test func twoKeysAddedAsDataWithOneTagAreDuplicates() throws {
        let first = try KeyFixtures.external(
            try #require(SecKeyCopyPublicKey(try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256))))
        let second = try KeyFixtures.external(
            try #require(SecKeyCopyPublicKey(try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256))))
        try withFreshKeychain {
            let query: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeyClass: kSecAttrKeyClassPublic, kSecAttrApplicationTag: Self.tag,
            ]
            #expect(SecItemAdd(query.merging([kSecValueData: first]) { $1 } as CFDictionary, nil) == errSecSuccess)
            #expect(
                SecItemAdd(query.merging([kSecValueData: second]) { $1 } as CFDictionary, nil) == errSecDuplicateItem)
        }
    }

    /// An added key's item takes the usage flags `SecKeyCopyAttributes` reports for its kind.
    @Test func anAddedKeysUsageFlagsAreApplesForEachKind() throws {
        try withFreshKeychain {
            for (index, (type, isPrivate, flags)) in SecKeyGenerationTests.usageFlags.enumerated() {
                let key = try SecKeyGenerationTests.key(type, isPrivate: isPrivate)
                let tag = Data("com.example.keys.\(index)".utf8)
                #expect(
                    SecItemAdd([kSecValueRef: key, kSecAttrApplicationTag: tag] as CFDictionary, nil) == errSecSuccess)
                let (status, found) = lookUp([
                    kSecClass: kSecClassKey, kSecAttrApplicationTag: tag, kSecReturnAttributes: true,
                ])
                #expect(status == errSecSuccess)
                let attributes = try #require(found as? [String: Any])
                for (flag, value) in flags {
                    #expect(attributes[flag as String] as? Bool == value, "\(type) private \(isPrivate): \(flag)")
                }
            }
        }
    }

    @Test func updateAndDeleteKeyItems() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        try withFreshKeychain {
            #expect(
                SecItemAdd([kSecValueRef: key, kSecAttrApplicationTag: Self.tag] as CFDictionary, nil)
                    == errSecSuccess)
            let query: [CFString: Any] = [kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag]
            #expect(SecItemUpdate(query as CFDictionary, [kSecAttrLabel: "renamed"] as CFDictionary) == errSecSuccess)
            let (_, found) = lookUp(query.merging([kSecReturnAttributes: true]) { $1 })
            #expect((found as? [String: Any])?[kSecAttrLabel as String] as? String == "renamed")
            #expect(
                SecItemUpdate(query as CFDictionary, [kSecAttrKeyType: kSecAttrKeyTypeRSA] as CFDictionary)
                    == errSecParam)
            // A query by kSecValueRef names the key's item.
            #expect(SecItemDelete([kSecValueRef: key] as CFDictionary) == errSecSuccess)
            #expect(SecItemDelete(query as CFDictionary) == errSecItemNotFound)
        }
    }

    @Test func privateKeyUsageAndProtectionClassesApplyToKeys() throws {
        try withFreshKeychain {
            var error: Unmanaged<CFError>?
            let access = try #require(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, &error))
            let parameters: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                kSecPrivateKeyAttrs: [
                    kSecAttrIsPermanent: true, kSecAttrApplicationTag: Self.tag,
                    kSecAttrAccessControl: access,
                ] as [CFString: Any],
            ]
            #expect(SecKeyCreateRandomKey(parameters as CFDictionary, &error) != nil)
            let (_, found) = lookUp([kSecClass: kSecClassKey, kSecReturnAttributes: true])
            #expect(
                (found as? [String: Any])?[kSecAttrAccessible as String] as? String
                    == kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String)
        }
    }

    /// A key protected by biometry is released to a look-up only after a match, as a password's secret is.
    @Test func aBiometryKeyAsksForAMatchWhenLookedUp() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            var error: Unmanaged<CFError>?
            let access = try #require(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .biometryAny], &error))
            let parameters: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                kSecPrivateKeyAttrs: [
                    kSecAttrIsPermanent: true, kSecAttrApplicationTag: Self.tag,
                    kSecAttrAccessControl: access,
                ] as [CFString: Any],
            ]
            let made = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, &error))
            let query: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag, kSecReturnRef: true,
            ]
            try keychain.authenticators.biometry.script(.cancel)
            #expect(lookUp(query).0 == errSecUserCanceled)
            try keychain.authenticators.biometry.script(.match)
            let (status, result) = lookUp(query)
            #expect(status == errSecSuccess)
            #expect(result as? SecKey == made)
            // Attributes alone need no match.
            #expect(lookUp([kSecClass: kSecClassKey, kSecReturnAttributes: true]).0 == errSecSuccess)
        }
    }
}
