import Foundation
import KeychainCore
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
            let software = try #require(SecKeyCreateRandomKey(
                [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom] as CFDictionary, nil))
            #expect(SecItemAdd([kSecValueRef as String: software,
                                kSecAttrApplicationTag as String: Data("com.example.software".utf8)] as CFDictionary,
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
    /// blob cannot be loaded: the item is still listed, and no key that signs comes out of it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/swtpm"), "swtpm is not installed"))
    func aKeyOfAnotherTPMIsStillListedButGivesNoUsableKey() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("se-reset-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let first = try EnclaveTestTPM()
        try SecureEnclaveBacking.$tctiOverride.withValue(first.tcti) {
            try SecKeyEnclaveTests.open(home) {
                _ = try #require(SecKeyEnclaveTests.create(Self.permanentParameters()).key)
            }
        }
        let second = try EnclaveTestTPM()
        try SecureEnclaveBacking.$tctiOverride.withValue(second.tcti) {
            try SecKeyEnclaveTests.open(home) {
                // The item is still there, with its token ID…
                var query = Self.tagQuery
                query[kSecReturnAttributes as String] = true
                var result: AnyObject?
                #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
                #expect((result as? [String: Any])?[kSecAttrTokenID as String] as? String == "com.apple.setoken")
                // …but no usable key comes out of it: this TPM cannot load the blob.
                query[kSecReturnAttributes as String] = nil
                query[kSecReturnRef as String] = true
                result = nil
                _ = SecItemCopyMatching(query as CFDictionary, &result)
                if let key = result.map({ $0 as! SecKey }) {
                    #expect(SecKeyEnclaveTests.sign(key, Data("m".utf8)).signature == nil)
                }
            }
        }
    }
}
