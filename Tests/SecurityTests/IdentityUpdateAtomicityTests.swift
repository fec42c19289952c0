import Foundation
import KeychainCore
import Security
import Testing

/// `SecItemUpdate` of `kSecClassIdentity` changes the certificate and the private key in one write: when the
/// key's half fails after the certificate's would have been applied, the certificate is as it was.
@Suite struct IdentityUpdateAtomicityTests {
    private func status(_ query: [CFString: Any]) -> OSStatus { SecItemCopyMatching(query as CFDictionary, nil) }

    /// The key half would take the primary key of another key item (the same key under the new tag).
    @Test func aKeyHalfCollisionLeavesTheCertificateUnchanged() throws {
        let fixture = try IdentityFixture.make(commonName: "Collide")
        try withFreshKeychain {
            let key: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecValueRef: fixture.privateKey, kSecAttrApplicationTag: Data("tag.one".utf8),
            ]
            #expect(SecItemAdd(key as CFDictionary, nil) == errSecSuccess)
            let taken = key.merging([kSecAttrApplicationTag: Data("tag.taken".utf8)]) { $1 }
            #expect(SecItemAdd(taken as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd([kSecValueRef: fixture.certificate] as CFDictionary, nil) == errSecSuccess)

            let query: [CFString: Any] = [kSecClass: kSecClassIdentity, kSecAttrApplicationTag: Data("tag.one".utf8)]
            let changes: [CFString: Any] = [kSecAttrLabel: "After", kSecAttrApplicationTag: Data("tag.taken".utf8)]
            #expect(SecItemUpdate(query as CFDictionary, changes as CFDictionary) == errSecDuplicateItem)
            #expect(status([kSecClass: kSecClassCertificate, kSecAttrLabel: "Collide"]) == errSecSuccess)
            #expect(status([kSecClass: kSecClassCertificate, kSecAttrLabel: "After"]) == errSecItemNotFound)
            #expect(status([kSecClass: kSecClassKey, kSecAttrLabel: "After"]) == errSecItemNotFound)
            #expect(status(query) == errSecSuccess)
        }
    }

    /// Two identities' keys would end with one primary key: each half alone is fine, and the second key's
    /// write fails after the first identity's halves were written.
    @Test func twoKeyHalvesThatCollideLeaveBothIdentitiesUnchanged() throws {
        let one = try IdentityFixture.make(commonName: "One")
        let two = try IdentityFixture.make(commonName: "Two")
        try withFreshKeychain {
            for fixture in [one, two] {
                let key: [CFString: Any] = [
                    kSecClass: kSecClassKey, kSecValueRef: fixture.privateKey,
                    kSecAttrApplicationTag: Data("tag.one".utf8),
                ]
                #expect(SecItemAdd(key as CFDictionary, nil) == errSecSuccess)
                #expect(SecItemAdd([kSecValueRef: fixture.certificate] as CFDictionary, nil) == errSecSuccess)
            }
            let changes: [CFString: Any] = [kSecAttrLabel: "After", kSecAttrApplicationLabel: Data("same".utf8)]
            #expect(
                SecItemUpdate([kSecClass: kSecClassIdentity] as CFDictionary, changes as CFDictionary)
                    == errSecDuplicateItem)
            #expect(status([kSecClass: kSecClassCertificate, kSecAttrLabel: "One"]) == errSecSuccess)
            #expect(status([kSecClass: kSecClassCertificate, kSecAttrLabel: "Two"]) == errSecSuccess)
            #expect(status([kSecClass: kSecClassCertificate, kSecAttrLabel: "After"]) == errSecItemNotFound)
            let renamedKey: [CFString: Any] = [kSecClass: kSecClassKey, kSecAttrApplicationLabel: Data("same".utf8)]
            #expect(status(renamedKey) == errSecItemNotFound)
            #expect(status([kSecClass: kSecClassIdentity, kSecAttrLabel: "One"]) == errSecSuccess)
            #expect(status([kSecClass: kSecClassIdentity, kSecAttrLabel: "Two"]) == errSecSuccess)
        }
    }

    /// The key half needs the user (its access control is re-sealed) and the user cancels: the certificate,
    /// which needs no one, keeps its protection class.
    @Test func aCanceledKeyHalfLeavesTheCertificateUnchanged() async throws {
        let fixture = try IdentityFixture.make(commonName: "Guarded")
        try await withAuthenticatingKeychain { keychain, _ in
            var error: Unmanaged<CFError>?
            let guarded = try #require(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryAny, &error))
            let identity = SecIdentity(certificate: fixture.certificate, privateKey: fixture.privateKey)
            let add: [CFString: Any] = [kSecValueRef: identity, kSecAttrAccessControl: guarded]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let certificate: [CFString: Any] = [
                kSecClass: kSecClassCertificate, kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            ]
            #expect(status(certificate) == errSecSuccess)

            let relaxed = try #require(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, .devicePasscode, &error))
            try keychain.authenticators.biometry.script(.cancel)
            let changes: [CFString: Any] = [kSecAttrAccessControl: relaxed]
            #expect(
                SecItemUpdate([kSecClass: kSecClassIdentity] as CFDictionary, changes as CFDictionary)
                    == errSecUserCanceled)
            #expect(status(certificate) == errSecSuccess)
            let moved = certificate.merging([kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]) {
                $1
            }
            #expect(status(moved) == errSecItemNotFound)

            // With the user's consent, both halves move.
            try keychain.authenticators.biometry.script(.match)
            #expect(
                SecItemUpdate([kSecClass: kSecClassIdentity] as CFDictionary, changes as CFDictionary)
                    == errSecSuccess)
            #expect(status(moved) == errSecSuccess)
            let movedKey: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            #expect(status(movedKey) == errSecSuccess)
        }
    }
}
