import Foundation
import Security
import Testing
import X509Certificates

/// `kSecAttrIssuer` given as a DER name. A certificate item keeps its issuer normalized (`issr`), and Apple's client
/// normalizes an issuer that is a DER SEQUENCE in every dictionary it sends (`SecItem.m`,
/// `SecItemAttributesPrepare`, with `SecCertificate.c`'s `createNormalizedX501Name`): the issuer as the
/// certificate holds it finds the certificate, and the identity. Other data goes as given; the subject is never
/// normalized there.
@Suite struct CertificateIssuerQueryTests {
    private func lookUp(_ query: [CFString: Any]) -> (OSStatus, AnyObject?) {
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    /// A self-signed certificate whose PrintableString names change under normalization (case, blanks).
    private func mixedCase() throws -> (certificate: SecCertificate, rawIssuer: Data) {
        let certificate = try CertificateFixtures.shared().certificate("mixed")
        let rawIssuer = Data(certificate.x509.issuer.der)
        #expect(rawIssuer != SecCertificateCopyNormalizedIssuerSequence(certificate) as Data?)
        return (certificate, rawIssuer)
    }

    @Test func theIssuerAsTheCertificateHoldsItFindsUpdatesAndDeletes() throws {
        let (mixed, rawIssuer) = try mixedCase()
        let leaf = try CertificateFixtures.shared().certificate("leaf")
        try withFreshKeychain {
            #expect(SecItemAdd([kSecValueRef: mixed] as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd([kSecValueRef: leaf] as CFDictionary, nil) == errSecSuccess)
            let (_, attributes) = lookUp([
                kSecClass: kSecClassCertificate, kSecValueRef: mixed, kSecReturnAttributes: true,
            ])
            let stored = try #require((attributes as? [String: Any])?[kSecAttrIssuer as String] as? Data)
            let normalized = try #require(SecCertificateCopyNormalizedIssuerSequence(mixed) as Data?)
            // Apple's first decoding reads one element: bytes after the name are not looked at.
            for issuer in [rawIssuer, normalized, stored, rawIssuer + Data([0xFF])] {
                let (status, found) = lookUp([
                    kSecClass: kSecClassCertificate, kSecAttrIssuer: issuer, kSecReturnRef: true,
                    kSecMatchLimit: kSecMatchLimitAll,
                ])
                #expect(status == errSecSuccess, "\(issuer.count) bytes")
                #expect(found as? [SecCertificate] == [mixed])
            }
            let byIssuer: [CFString: Any] = [kSecClass: kSecClassCertificate, kSecAttrIssuer: rawIssuer]
            #expect(
                SecItemUpdate(byIssuer as CFDictionary, [kSecAttrLabel: "renamed"] as CFDictionary) == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassCertificate, kSecAttrLabel: "renamed"]).0 == errSecSuccess)
            #expect(SecItemDelete(byIssuer as CFDictionary) == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassCertificate, kSecAttrLabel: "renamed"]).0 == errSecItemNotFound)
            #expect(lookUp([kSecValueRef: leaf]).0 == errSecSuccess)
        }
    }

    @Test func theSubjectAndDataThatIsNotANameGoAsGiven() throws {
        let (mixed, _) = try mixedCase()
        try withFreshKeychain {
            #expect(SecItemAdd([kSecValueRef: mixed] as CFDictionary, nil) == errSecSuccess)
            // Apple normalizes only the issuer: the subject as the certificate holds it matches no stored `subj`.
            let rawSubject = Data(mixed.x509.subject.der)
            #expect(lookUp([kSecClass: kSecClassCertificate, kSecAttrSubject: rawSubject]).0 == errSecItemNotFound)
            // Data that is not a SEQUENCE, or a SEQUENCE that is no name, is compared as it is, without an error.
            for notAName in [Data([0x04, 0x01, 0x00]), Data([0x30, 0x02, 0x31, 0x00])] {
                #expect(lookUp([kSecClass: kSecClassCertificate, kSecAttrIssuer: notAName]).0 == errSecItemNotFound)
            }
        }
    }

    @Test func anIdentityIsFoundByItsCertificatesIssuer() throws {
        let fixture = try IdentityFixture.make(commonName: "Issuer Identity")
        let name = "\(fixture.stem)-mixed"
        _ = try CertificateFixtures.shared().output(
            """
            openssl req -x509 -new -key \(fixture.stem).key -config mixed.cnf -days 30 -outform DER \
                -out \(name).der 2>/dev/null
            """)
        let certificate = try CertificateFixtures.shared().certificate(name)
        let rawIssuer = Data(certificate.x509.issuer.der)
        #expect(rawIssuer != SecCertificateCopyNormalizedIssuerSequence(certificate) as Data?)
        try withFreshKeychain {
            #expect(
                SecItemAdd([kSecClass: kSecClassKey, kSecValueRef: fixture.privateKey] as CFDictionary, nil)
                    == errSecSuccess)
            #expect(SecItemAdd([kSecValueRef: certificate] as CFDictionary, nil) == errSecSuccess)
            let (status, found) = lookUp([
                kSecClass: kSecClassIdentity, kSecAttrIssuer: rawIssuer, kSecReturnRef: true,
            ])
            #expect(status == errSecSuccess)
            let identity = try #require(found as? SecIdentity)
            var held: SecCertificate?
            #expect(SecIdentityCopyCertificate(identity, &held) == errSecSuccess)
            #expect(held == certificate)
        }
    }
}
