import Foundation
import KeychainCore
import KeychainTestSupport
import Security
import Testing

/// A Secure Enclave key stored as a key item carries `kSecAttrTokenID`: queries match it, it never leaves in a
/// backup whatever its class, it can never be made synchronizable, and its private key exports as Apple's does not.
@Suite(.serialized)
struct SecKeyEnclaveItemTests {
    static let tag = "com.example.se.item"

    static func permanentParameters(accessible: CFString = kSecAttrAccessibleWhenUnlocked) -> [String: Any] {
        var parameters = SecKeyEnclaveTests.parameters(tag: tag)
        var privateAttributes = parameters[kSecPrivateKeyAttrs as String] as? [String: Any] ?? [:]
        privateAttributes[kSecAttrAccessControl as String] = SecAccessControlCreateWithFlags(
            nil, accessible, .privateKeyUsage, nil)
        parameters[kSecPrivateKeyAttrs as String] = privateAttributes
        return parameters
    }

    static var tagQuery: [String: Any] {
        [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data(tag.utf8)]
    }

    @Test func theItemCarriesTheTokenIDAndQueriesMatchIt() async throws {
        try await SecKeyEnclaveTests().inSoftwareEnclave { _, _ in
            _ = try #require(SecKeyEnclaveTests.create(Self.permanentParameters()).key)
            var query = Self.tagQuery
            query[kSecReturnAttributes as String] = true
            var result: AnyObject?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let attributes = try #require(result as? [String: Any])
            #expect(attributes[kSecAttrTokenID as String] as? String == kSecAttrTokenIDSecureEnclave as String)
            // A software key item has no token ID, so a query by the enclave's token does not find it.
            let software = try #require(
                SecKeyCreateRandomKey(
                    [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom] as CFDictionary, nil))
            #expect(
                SecItemAdd(
                    [
                        kSecValueRef as String: software,
                        kSecAttrApplicationTag as String: Data("com.example.software".utf8),
                    ] as CFDictionary,
                    nil) == errSecSuccess)
            let byToken: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(byToken as CFDictionary, &result) == errSecSuccess)
            let found = try #require(result as? [[String: Any]])
            #expect(found.count == 1)
            #expect(found.first?[kSecAttrApplicationTag as String] as? Data == Data(Self.tag.utf8))
        }
    }

    @Test func theKeyNeverLeavesInABackupEvenInAMigratableClass() async throws {
        try await SecKeyEnclaveTests().inSoftwareEnclave { keychain, _ in
            _ = try #require(SecKeyEnclaveTests.create(Self.permanentParameters()).key)
            let password: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a",
                kSecValueData as String: Data("pw".utf8), kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
            ]
            #expect(SecItemAdd(password as CFDictionary, nil) == errSecSuccess)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("se-backup-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: url) }
            let summary = try keychain.backup(to: url, password: Secret(Array("backup password".utf8)))
            #expect(summary.itemCount == 1)
            #expect(summary.excludedCount == 1)
        }
    }

    @Test func theKeyCannotBeMadeSynchronizable() async throws {
        try await SecKeyEnclaveTests().inSoftwareEnclave { _, _ in
            // Not at creation (top level or the private key's attributes)…
            var parameters = Self.permanentParameters()
            parameters[kSecAttrSynchronizable as String] = true
            #expect(SecKeyEnclaveTests.create(parameters).status == Int(errSecParam))
            // …nor by adding the key object as a synchronizable item…
            let key = try #require(SecKeyEnclaveTests.create(SecKeyEnclaveTests.parameters()).key)
            let add: [String: Any] = [
                kSecValueRef as String: key, kSecAttrSynchronizable as String: true,
                kSecAttrApplicationTag as String: Data("com.example.sync".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecParam)
            // …nor by a later update.
            _ = try #require(SecKeyEnclaveTests.create(Self.permanentParameters()).key)
            let changes = [kSecAttrSynchronizable as String: true] as CFDictionary
            #expect(SecItemUpdate(Self.tagQuery as CFDictionary, changes) == errSecParam)
            var query = Self.tagQuery
            query[kSecReturnAttributes as String] = true
            var result: AnyObject?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [String: Any])?[kSecAttrSynchronizable as String] as? Bool == false)
        }
    }

    @Test func exportingThePrivateKeyIsUnimplementedAsOnApple() async throws {
        try await SecKeyEnclaveTests().inSoftwareEnclave { _, _ in
            let key = try #require(SecKeyEnclaveTests.create(SecKeyEnclaveTests.parameters()).key)
            var error: Unmanaged<CFError>?
            #expect(SecKeyCopyExternalRepresentation(key, &error) == nil)
            let failure = try #require(error?.takeRetainedValue())
            #expect(CFErrorGetCode(failure) == Int(errSecUnimplemented))
            #expect(CFErrorGetDomain(failure) as String == "NSOSStatusErrorDomain")
            let description = CFErrorCopyDescription(failure) as String? ?? ""
            #expect(description.contains("export not implemented for key"))
            #expect(description.contains("com.apple.setoken"))
        }
    }
}

extension SecKeyEnclaveItemTests {
    /// A key item made under one TPM, opened with another (or the same one after a reset, a fresh state): the
    /// blob cannot be loaded. As on Apple, the item is still listed and a search returns a key for it, with its
    /// public key and attributes; each use that needs the enclave fails, never a crash: with errSecNotAvailable, as
    /// the other TPM's storage key is not the one the blob names (the keychain cannot tell another TPM from one
    /// that impersonates this one on its transport, and must not call the key lost on such a word).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/swtpm"), "swtpm is not installed"))
    func aKeyOfAnotherTPMIsStillListedButGivesNoUsableKey() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("se-reset-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let first = try SoftwareTPM()
        let publicKey = try SecureEnclaveBacking.$tctiOverride.withValue(first.tcti) {
            try SecKeyEnclaveTests.open(home) {
                let key = try #require(SecKeyEnclaveTests.create(Self.permanentParameters()).key)
                return try #require(SecKeyCopyPublicKey(key))
            }
        }
        let second = try SoftwareTPM()
        try SecureEnclaveBacking.$tctiOverride.withValue(second.tcti) {
            try SecKeyEnclaveTests.open(home) {
                // The item is still there, with its token ID…
                var query = Self.tagQuery
                query[kSecReturnAttributes as String] = true
                var result: AnyObject?
                #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
                #expect((result as? [String: Any])?[kSecAttrTokenID as String] as? String == "com.apple.setoken")
                // …and a search returns a key for it, whose uses fail: this TPM cannot load the blob.
                let key = try #require(Self.foundKey())
                try Self.expectUnusable(
                    key, publicKey: publicKey, hardware: true,
                    detail: "the TPM's storage key is not the one this key was made under")
            }
        }
    }

    /// A software enclave key item whose key was sealed under another keychain home's device key: found as a key
    /// whose uses fail with errSecDecode, as a key of another TPM.
    @Test func aSoftwareKeyOfAnotherHomeIsListedButGivesNoUsableKey() async throws {
        let otherHome = FileManager.default.temporaryDirectory.appendingPathComponent("se-home-\(UUID())")
        defer { try? FileManager.default.removeItem(at: otherHome) }
        let setting = try EnclaveSettingFile()
        let (storedForm, publicKey) = try setting.use {
            try SecKeyEnclaveTests.open(otherHome) {
                let key = try #require(SecKeyEnclaveTests.create(Self.permanentParameters()).key)
                var query = Self.tagQuery
                query[kSecReturnData as String] = true
                var result: AnyObject?
                #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
                return (try #require(result as? Data), try #require(SecKeyCopyPublicKey(key)))
            }
        }
        try await SecKeyEnclaveTests().inSoftwareEnclave { keychain, _ in
            // The item as a restore of the other home's database would bring it (its key does not leave in a
            // backup, and an add of bytes this enclave cannot load is refused).
            var item = NewItem(
                itemClass: .key,
                attributes: [
                    .applicationTag: .data(Array(Self.tag.utf8)), .keyClass: .number(1), .keyType: .number(73),
                    .keySizeInBits: .number(256), .tokenID: .string(kSecAttrTokenIDSecureEnclave as String),
                ])
            item.value = .key(
                KeyValue(
                    keyType: "73", keyClass: "1", sizeInBits: 256,
                    externalRepresentation: Secret(Array(storedForm))))
            try keychain.add(item)
            let key = try #require(Self.foundKey())
            try Self.expectUnusable(
                key, publicKey: publicKey, hardware: false, detail: "sealed in another keychain home")
        }
    }

    /// The key `kSecReturnRef` gives for the tagged item, after checking the search succeeds.
    static func foundKey() -> SecKey? {
        var query = tagQuery
        query[kSecReturnRef as String] = true
        var result: AnyObject?
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        guard let result, CFGetTypeID(result) == SecKeyGetTypeID() else { return nil }
        return (result as! SecKey)
    }

    /// A found key whose enclave key cannot be loaded: its public key and attributes are there; signing, ECIES
    /// decryption and key exchange fail with `status` (errSecDecode, -26275, unless told), each time, saying why
    /// (`detail`).
    static func expectUnusable(
        _ key: SecKey, publicKey: SecKey, hardware: Bool, detail: String, status: OSStatus = errSecDecode
    ) throws {
        #expect(SecKeyCopyPublicKey(key) == publicKey)
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect(attributes[kSecAttrTokenID as String] as? String == kSecAttrTokenIDSecureEnclave as String)
        #expect(attributes[kSecAttrIsHardwareBackedLinux as String] as? Bool == hardware)
        for _ in 0..<2 {
            var error: Unmanaged<CFError>?
            #expect(
                SecKeyCreateSignature(
                    key, .ecdsaSignatureMessageX962SHA256, Data("m".utf8) as CFData, &error) == nil)
            try expectFailure(error, detail, status)
        }
        let algorithm = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM
        let ciphertext = try #require(SecKeyCreateEncryptedData(publicKey, algorithm, Data("m".utf8) as CFData, nil))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateDecryptedData(key, algorithm, ciphertext, &error) == nil)
        try expectFailure(error, detail, status)
        let peer = try #require(
            SecKeyCreateRandomKey(
                [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256]
                    as CFDictionary, nil))
        let peerPublic = try #require(SecKeyCopyPublicKey(peer))
        error = nil
        #expect(
            SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, peerPublic, [:] as CFDictionary, &error)
                == nil)
        try expectFailure(error, detail, status)
    }

    static func expectFailure(_ error: Unmanaged<CFError>?, _ detail: String, _ status: OSStatus) throws {
        let failure = try #require(error?.takeRetainedValue())
        #expect(CFErrorGetCode(failure) == Int(status))
        #expect(CFErrorGetDomain(failure) as String == "NSOSStatusErrorDomain")
        let description = CFErrorCopyDescription(failure) as String? ?? ""
        if status == errSecDecode { #expect(description.contains("cannot load the key"), "\(description)") }
        #expect(description.contains(detail), "\(description)")
    }
}
