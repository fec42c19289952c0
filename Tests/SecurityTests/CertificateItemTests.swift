import Foundation
import KeychainCore
import Security
import Testing

/// Certificates as keychain items: added by `kSecValueRef` or their DER as `kSecValueData`, the attributes Apple
/// derives from the DER, Apple's primary key (type, issuer, serial), `kSecReturnRef` giving a `SecCertificate`.
@Suite struct CertificateItemTests {
    private func lookUp(_ query: [CFString: Any]) -> (OSStatus, AnyObject?) {
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    @Test func aCertificateIsAddedOnceAndComesBackAsItself() throws {
        let fixtures = try CertificateFixtures.shared()
        let leaf = try fixtures.certificate("leaf")
        try withFreshKeychain {
            #expect(SecItemAdd([kSecValueRef: leaf] as CFDictionary, nil) == errSecSuccess)
            // The same certificate twice, even with another label, is a duplicate.
            let again: [CFString: Any] = [kSecClass: kSecClassCertificate, kSecValueRef: leaf, kSecAttrLabel: "mine"]
            #expect(SecItemAdd(again as CFDictionary, nil) == errSecDuplicateItem)
            let asData: [CFString: Any] = [
                kSecClass: kSecClassCertificate, kSecValueData: SecCertificateCopyData(leaf),
            ]
            #expect(SecItemAdd(asData as CFDictionary, nil) == errSecDuplicateItem)
            let (status, result) = lookUp([kSecClass: kSecClassCertificate, kSecReturnRef: true])
            #expect(status == errSecSuccess)
            #expect(result as? SecCertificate == leaf)
            let (_, data) = lookUp([kSecClass: kSecClassCertificate, kSecReturnData: true])
            #expect(data as? Data == SecCertificateCopyData(leaf) as Data)
        }
    }

    /// Apple's server gives a certificate added without kSecAttrAccessible the `Always` class (dk), where every
    /// other item gets WhenUnlocked: it is public, and trust evaluation reads it while the device is locked.
    @Test func aCertificateWithoutAProtectionClassIsAlwaysAndReadableWhileLocked() throws {
        let leaf = try CertificateFixtures.shared().certificate("leaf")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cert-dk-\(UUID().uuidString)")
        var configuration = KeychainConfiguration(
            home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]))
        configuration.passcodeDerivationTarget = 0.002
        let keychain = try Keychain(configuration: configuration)
        defer {
            keychain.close()
            try? FileManager.default.removeItem(at: home)
        }
        try keychain.setPasscode(Secret(Array("1234".utf8)))
        try SecurityRuntime.withKeychain(keychain) {
            #expect(SecItemAdd([kSecValueRef: leaf] as CFDictionary, nil) == errSecSuccess)
            #expect(addPassword(service: "s", account: "a", secret: "p") == errSecSuccess)
            let (_, attributes) = lookUp([kSecClass: kSecClassCertificate, kSecReturnAttributes: true])
            #expect((attributes as? [String: Any])?[kSecAttrAccessible as String] as? String == "dk")
            keychain.simulateRestart()
            let (status, data) = lookUp([kSecClass: kSecClassCertificate, kSecReturnData: true])
            #expect(status == errSecSuccess)
            #expect(data as? Data == SecCertificateCopyData(leaf) as Data)
            let password: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "s", kSecReturnData: true,
            ]
            #expect(lookUp(password).0 == errSecInteractionNotAllowed)
        }
    }

    @Test func theAttributesAreDerivedFromTheDER() throws {
        let fixtures = try CertificateFixtures.shared()
        let leaf = try fixtures.certificate("leaf")
        let root = try fixtures.certificate("root")
        try withFreshKeychain {
            #expect(SecItemAdd([kSecValueRef: leaf] as CFDictionary, nil) == errSecSuccess)
            let asData: [CFString: Any] = [
                kSecClass: kSecClassCertificate, kSecValueData: SecCertificateCopyData(root),
            ]
            #expect(SecItemAdd(asData as CFDictionary, nil) == errSecSuccess)
            let (_, found) = lookUp([
                kSecClass: kSecClassCertificate, kSecAttrLabel: "www.example.test", kSecReturnAttributes: true,
            ])
            let attributes = try #require(found as? [String: Any])
            #expect(attributes[kSecAttrCertificateType as String] as? NSNumber == 3)
            #expect(attributes[kSecAttrCertificateEncoding as String] as? NSNumber == 3)
            // No alias from the certificate's e-mail address: Apple's SecCertificateCopyAttributeDictionary has that
            // code under #if 0 (SecCertificate.c), so a reference's attributes carry none.
            #expect(attributes[kSecAttrAlias as String] == nil)
            #expect((attributes[kSecAttrIssuer as String] as? Data)?.isEmpty == false)
            #expect((attributes[kSecAttrSerialNumber as String] as? Data)?.isEmpty == false)
            #expect((attributes[kSecAttrPublicKeyHash as String] as? Data)?.count == 20)
            // A query by the reference finds that certificate, and a delete by it removes only it.
            #expect(lookUp([kSecValueRef: root]).0 == errSecSuccess)
            #expect(SecItemDelete([kSecValueRef: root] as CFDictionary) == errSecSuccess)
            #expect(
                lookUp([kSecClass: kSecClassCertificate, kSecAttrLabel: "Example Test Root"]).0
                    == errSecItemNotFound)
            #expect(lookUp([kSecClass: kSecClassCertificate, kSecAttrLabel: "www.example.test"]).0 == errSecSuccess)
        }
    }

    @Test func dataThatIsNotACertificateIsRefused() throws {
        try withFreshKeychain {
            let garbage: [CFString: Any] = [
                kSecClass: kSecClassCertificate, kSecValueData: Data([0x30, 0x03, 1, 2, 3]),
            ]
            #expect(SecItemAdd(garbage as CFDictionary, nil) == errSecParam)
            #expect(SecItemAdd([kSecClass: kSecClassCertificate] as CFDictionary, nil) == errSecParam)
            #expect(lookUp([kSecClass: kSecClassCertificate]).0 == errSecItemNotFound)
        }
    }
}
