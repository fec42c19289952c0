import Foundation
import KeychainCore
import Security
import Testing

/// The certificate search keys of `SecItemCopyMatching` (Apple's "Search Attribute Keys and Values"): issuers up
/// the chain, e-mail address, subject strings, validity date, policy and trust, item list; wrong types, other
/// classes, and the functions that refuse them.
@Suite struct CertificateMatchTests {
    private func lookUp(_ query: [CFString: Any]) -> (OSStatus, AnyObject?) {
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    private func add(_ certificates: [SecCertificate]) {
        for certificate in certificates {
            #expect(SecItemAdd([kSecValueRef: certificate] as CFDictionary, nil) == errSecSuccess)
        }
    }

    /// The certificates a query returns as references (`kSecMatchLimitAll`), or its status.
    private func certificates(_ query: [CFString: Any]) -> (OSStatus, [SecCertificate]) {
        var full = query
        full[kSecClass] = full[kSecClass] ?? kSecClassCertificate
        full[kSecReturnRef] = true
        full[kSecMatchLimit] = full[kSecMatchLimit] ?? kSecMatchLimitAll
        let (status, result) = lookUp(full)
        if let one = result as? SecCertificate { return (status, [one]) }
        return (status, (result as? [SecCertificate]) ?? [])
    }

    private func subject(_ certificate: SecCertificate) throws -> Data {
        try #require(SecCertificateCopyNormalizedSubjectSequence(certificate) as Data?)
    }

    // MARK: kSecMatchIssuers

    @Test func issuersMatchTheDirectIssuerOrOneFoundUpTheChainInTheKeychain() throws {
        let fixtures = try CertificateFixtures.shared()
        let root = try fixtures.certificate("root")
        let intermediate = try fixtures.certificate("intermediate")
        let leaf = try fixtures.certificate("leaf")
        let mail = try fixtures.certificate("mail")
        try withFreshKeychain {
            add([root, intermediate, leaf, mail])
            // The root issued the intermediate (and itself); the leaf's issuer, the intermediate, is in the keychain
            // and was issued by the root.
            let (status, byRoot) = certificates([kSecMatchIssuers: [try subject(root)]])
            #expect(status == errSecSuccess)
            #expect(Set(byRoot) == [root, intermediate, leaf])
            let (_, byIntermediate) = certificates([kSecMatchIssuers: [try subject(intermediate)]])
            #expect(byIntermediate == [leaf])
            // Two names: either will do.
            let (_, byEither) = certificates([kSecMatchIssuers: [try subject(mail), try subject(intermediate)]])
            #expect(Set(byEither) == [leaf, mail])
        }
    }

    @Test func withoutTheIntermediateInTheKeychainTheRootIsNotFoundUpTheChain() throws {
        let fixtures = try CertificateFixtures.shared()
        let root = try fixtures.certificate("root")
        let leaf = try fixtures.certificate("leaf")
        try withFreshKeychain {
            add([leaf])
            let rootName = try subject(root)
            #expect(certificates([kSecMatchIssuers: [rootName]]).0 == errSecItemNotFound)
        }
    }

    @Test func anIssuerNameIsComparedNormalized() throws {
        // A self-signed certificate whose common name is the PrintableString "Mixed  Case".
        let stem = "printable-\(UUID().uuidString)"
        let fixtures = try CertificateFixtures.shared()
        _ = try fixtures.output(
            """
            printf '[req]\\ndistinguished_name = dn\\nprompt = no\\nstring_mask = nombstr\\n[dn]\\nCN = Mixed  Case\\n' \
                > \(stem).cnf
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout \(stem).key \
                -config \(stem).cnf -days 30 -outform DER -out \(stem).der 2>/dev/null
            """)
        let mixed = try fixtures.certificate(stem)
        /// The name as DER: SEQUENCE { SET { SEQUENCE { OID 2.5.4.3, PrintableString value } } }.
        func name(_ value: String) -> Data {
            let text = Array(value.utf8)
            let attribute: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03, 0x13, UInt8(text.count)] + text
            let set: [UInt8] = [0x30, UInt8(attribute.count)] + attribute
            let relative: [UInt8] = [0x31, UInt8(set.count)] + set
            return Data([0x30, UInt8(relative.count)] + relative)
        }
        try withFreshKeychain {
            add([mixed])
            // Apple upper-cases PrintableString values and collapses their blanks on both sides.
            #expect(certificates([kSecMatchIssuers: [name("mixed case")]]).1 == [mixed])
            #expect(certificates([kSecMatchIssuers: [name("Mixed  Case")]]).1 == [mixed])
            #expect(certificates([kSecMatchIssuers: [name("Mixed Cases")]]).0 == errSecItemNotFound)
        }
    }

    @Test func issuersOfTheWrongTypeAreErrSecParam() throws {
        let leaf = try CertificateFixtures.shared().certificate("leaf")
        try withFreshKeychain {
            add([leaf])
            #expect(certificates([kSecMatchIssuers: Data([0x30, 0x00])]).0 == errSecParam)
            #expect(certificates([kSecMatchIssuers: ["not data"]]).0 == errSecParam)
            #expect(certificates([kSecMatchIssuers: [Data([0x04, 0x01, 0x00])]]).0 == errSecParam)
            #expect(certificates([kSecMatchIssuers: [Data]()]).0 == errSecParam)
        }
    }

    @Test func issuersOnAPasswordClassAreUnsupportedAsOnApple() throws {
        let root = try CertificateFixtures.shared().certificate("root")
        try withFreshKeychain {
            #expect(addPassword(service: "svc", account: "a", secret: "s") == errSecSuccess)
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecMatchIssuers: [try subject(root)],
            ]
            #expect(lookUp(query).0 == errSecUnimplemented)
        }
    }

    // MARK: kSecMatchEmailAddressIfPresent

    @Test func anEmailAddressMatchesIgnoringCaseAndCertificatesWithoutOneAreLeftOut() throws {
        let fixtures = try CertificateFixtures.shared()
        let leaf = try fixtures.certificate("leaf")
        let mail = try fixtures.certificate("mail")
        let root = try fixtures.certificate("root")
        try withFreshKeychain {
            add([root, leaf, mail])
            #expect(certificates([kSecMatchEmailAddressIfPresent: "OPS@Example.test"]).1 == [leaf])
            // The subject's emailAddress attribute counts too.
            #expect(certificates([kSecMatchEmailAddressIfPresent: "first@example.test"]).1 == [mail])
            #expect(certificates([kSecMatchEmailAddressIfPresent: "nobody@example.test"]).0 == errSecItemNotFound)
            #expect(certificates([kSecMatchEmailAddressIfPresent: 7]).0 == errSecParam)
        }
    }

    @Test func anEmailAddressOnAPasswordClassIsIgnoredAsOnApple() throws {
        try withFreshKeychain {
            #expect(addPassword(service: "svc", account: "a", secret: "s") == errSecSuccess)
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecMatchEmailAddressIfPresent: "ops@example.test",
            ]
            #expect(lookUp(query).0 == errSecSuccess)
        }
    }

    // MARK: kSecMatchSubject…

    @Test func subjectStringsMatchTheCommonName() throws {
        let fixtures = try CertificateFixtures.shared()
        let leaf = try fixtures.certificate("leaf")
        let root = try fixtures.certificate("root")
        let unit = try fixtures.certificate("unit")
        try withFreshKeychain {
            add([root, leaf, unit])
            #expect(Set(certificates([kSecMatchSubjectContains: "example"]).1) == [leaf])
            #expect(Set(certificates([kSecMatchSubjectContains: "Example"]).1) == [root])
            #expect(certificates([kSecMatchSubjectStartsWith: "www."]).1 == [leaf])
            #expect(certificates([kSecMatchSubjectStartsWith: "example"]).0 == errSecItemNotFound)
            #expect(certificates([kSecMatchSubjectEndsWith: "Root"]).1 == [root])
            #expect(certificates([kSecMatchSubjectEndsWith: "www"]).0 == errSecItemNotFound)
            #expect(certificates([kSecMatchSubjectWholeString: "www.example.test"]).1 == [leaf])
            #expect(certificates([kSecMatchSubjectWholeString: "www.example"]).0 == errSecItemNotFound)
            // The organization is not the common name: unit.der has none and never matches.
            #expect(certificates([kSecMatchSubjectContains: "Org Only"]).0 == errSecItemNotFound)
            // Every subject key given must hold.
            let both: [CFString: Any] = [kSecMatchSubjectStartsWith: "www", kSecMatchSubjectEndsWith: "Root"]
            #expect(certificates(both).0 == errSecItemNotFound)
        }
    }

    @Test func caseInsensitiveAppliesToTheSubjectStrings() throws {
        let leaf = try CertificateFixtures.shared().certificate("leaf")
        try withFreshKeychain {
            add([leaf])
            #expect(certificates([kSecMatchSubjectWholeString: "WWW.Example.TEST"]).0 == errSecItemNotFound)
            let folded: [CFString: Any] = [
                kSecMatchSubjectWholeString: "WWW.Example.TEST", kSecMatchCaseInsensitive: true,
            ]
            #expect(certificates(folded).1 == [leaf])
            let starts: [CFString: Any] = [kSecMatchSubjectStartsWith: "WWW", kSecMatchCaseInsensitive: true]
            #expect(certificates(starts).1 == [leaf])
        }
    }

    @Test func subjectStringsOfTheWrongTypeAreErrSecParam() throws {
        try withFreshKeychain {
            for key in [
                kSecMatchSubjectContains, kSecMatchSubjectStartsWith, kSecMatchSubjectEndsWith,
                kSecMatchSubjectWholeString,
            ] {
                #expect(certificates([key: Data("www".utf8)]).0 == errSecParam)
            }
        }
    }

    // MARK: kSecMatchValidOnDate

    @Test func validOnDateTakesADateOrNullForNow() throws {
        let fixtures = try CertificateFixtures.shared()
        let leaf = try fixtures.certificate("leaf")
        let expired = try fixtures.certificate("expired")
        try withFreshKeychain {
            add([expired, leaf])
            #expect(certificates([kSecMatchValidOnDate: NSNull()]).1 == [leaf])
            // expired.der was valid through 2020.
            let inTwentyTwenty = Date(timeIntervalSince1970: 1_593_561_600)  // 2020-07-01
            #expect(certificates([kSecMatchValidOnDate: inTwentyTwenty]).1 == [expired])
            let longAgo = Date(timeIntervalSince1970: 0)
            #expect(certificates([kSecMatchValidOnDate: longAgo]).0 == errSecItemNotFound)
            #expect(certificates([kSecMatchValidOnDate: "today"]).0 == errSecParam)
            // Not a date any certificate could hold: refused, never converted.
            for seconds in [Double.nan, .infinity, 1e300] {
                let date = Date(timeIntervalSinceReferenceDate: seconds)
                #expect(certificates([kSecMatchValidOnDate: date]).0 == errSecParam)
                #expect(
                    certificates([kSecMatchValidOnDate: date, kSecMatchPolicy: SecPolicyCreateBasicX509()]).0
                        == errSecParam)
            }
        }
    }

    // MARK: kSecMatchPolicy and kSecMatchTrustedOnly

    @Test func anSSLPolicyKeepsTheCertificatesForThatHost() throws {
        let fixtures = try CertificateFixtures.shared()
        let leaf = try fixtures.certificate("leaf")
        let client = try fixtures.certificate("client")
        let expired = try fixtures.certificate("expired")
        try withFreshKeychain {
            add([expired, client, leaf])
            // Checked on the leaf, as Apple's keychain does for every policy but the basic one: the host name,
            // the extended key usage (client.der is for clients only) and the dates.
            let forHost = SecPolicyCreateSSL(true, "www.example.test" as CFString)
            #expect(certificates([kSecMatchPolicy: forHost]).1 == [leaf])
            let forAPI = SecPolicyCreateSSL(true, "api.example.test" as CFString)
            #expect(certificates([kSecMatchPolicy: forAPI]).1 == [leaf])
            let forOther = SecPolicyCreateSSL(true, "other.example.test" as CFString)
            #expect(certificates([kSecMatchPolicy: forOther]).0 == errSecItemNotFound)
            let forClients = SecPolicyCreateSSL(false, nil)
            #expect(certificates([kSecMatchPolicy: forClients]).1 == [client])
            // The date of kSecMatchValidOnDate is the policy's date too: in 2020 expired.der (made for the same
            // host) was the valid one.
            let inTwentyTwenty = Date(timeIntervalSince1970: 1_593_561_600)
            let then: [CFString: Any] = [kSecMatchPolicy: forHost, kSecMatchValidOnDate: inTwentyTwenty]
            #expect(certificates(then).1 == [expired])
            let inTwentyFifteen = Date(timeIntervalSince1970: 1_435_708_800)
            let before: [CFString: Any] = [kSecMatchPolicy: forHost, kSecMatchValidOnDate: inTwentyFifteen]
            #expect(certificates(before).0 == errSecItemNotFound)
        }
    }

    @Test func theBasicPolicyAndTrustedOnlyWantAChainToATrustedAnchor() throws {
        let fixtures = try CertificateFixtures.shared()
        let root = try fixtures.certificate("root")
        let intermediate = try fixtures.certificate("intermediate")
        let leaf = try fixtures.certificate("leaf")
        let system = try #require(try? Data(contentsOf: URL(fileURLWithPath: "/etc/ssl/certs/ISRG_Root_X1.pem")))
        let base64 = String(decoding: system, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("-----") }.joined()
        let systemDER = try #require(Data(base64Encoded: base64))
        let systemRoot = try #require(SecCertificateCreateWithData(nil, systemDER as CFData))
        try withFreshKeychain {
            add([root, intermediate, leaf])
            // The test root is no anchor of this system.
            #expect(certificates([kSecMatchTrustedOnly: true]).0 == errSecItemNotFound)
            #expect(certificates([kSecMatchPolicy: SecPolicyCreateBasicX509()]).0 == errSecItemNotFound)
            // false asks for nothing.
            #expect(Set(certificates([kSecMatchTrustedOnly: false]).1) == [root, intermediate, leaf])
            add([systemRoot])
            #expect(certificates([kSecMatchTrustedOnly: true]).1 == [systemRoot])
            #expect(certificates([kSecMatchPolicy: SecPolicyCreateBasicX509()]).1 == [systemRoot])
        }
    }

    @Test func policyAndTrustedOnlyOfTheWrongTypeAreErrSecParam() throws {
        try withFreshKeychain {
            #expect(certificates([kSecMatchPolicy: "ssl"]).0 == errSecParam)
            #expect(certificates([kSecMatchPolicy: [SecPolicyCreateBasicX509()]]).0 == errSecParam)
            #expect(certificates([kSecMatchTrustedOnly: "yes"]).0 == errSecParam)
        }
    }

    @Test func aPolicyOnAPasswordClassIsUnsupportedAsOnApple() throws {
        try withFreshKeychain {
            #expect(addPassword(service: "svc", account: "a", secret: "s") == errSecSuccess)
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecMatchPolicy: SecPolicyCreateBasicX509(),
            ]
            #expect(lookUp(query).0 == errSecUnimplemented)
            // Trust and dates apply only to certificates and identities, and are ignored here, as on Apple.
            let ignored: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecMatchTrustedOnly: true, kSecMatchValidOnDate: NSNull(),
                kSecMatchSubjectContains: "nothing",
            ]
            #expect(lookUp(ignored).0 == errSecSuccess)
        }
    }

    // MARK: kSecMatchItemList

    @Test func anItemListKeepsTheItemsItNames() throws {
        let fixtures = try CertificateFixtures.shared()
        let leaf = try fixtures.certificate("leaf")
        let root = try fixtures.certificate("root")
        try withFreshKeychain {
            add([root, leaf])
            #expect(certificates([kSecMatchItemList: [leaf]]).1 == [leaf])
            let mail = try fixtures.certificate("mail")
            #expect(certificates([kSecMatchItemList: [mail]]).0 == errSecItemNotFound)
            // Persistent references, of any class.
            #expect(addPassword(service: "svc", account: "a", secret: "one") == errSecSuccess)
            #expect(addPassword(service: "svc", account: "b", secret: "two") == errSecSuccess)
            let (_, reference) = lookUp([
                kSecClass: kSecClassGenericPassword, kSecAttrAccount: "b", kSecReturnPersistentRef: true,
            ])
            let persistent = try #require(reference as? Data)
            let (status, data) = lookUp([
                kSecClass: kSecClassGenericPassword, kSecMatchItemList: [persistent], kSecReturnData: true,
                kSecMatchLimit: kSecMatchLimitAll,
            ])
            #expect(status == errSecSuccess)
            #expect((data as? [Data]) == [Data("two".utf8)])
            #expect(certificates([kSecMatchItemList: leaf]).0 == errSecParam)
            #expect(certificates([kSecMatchItemList: ["leaf"]]).0 == errSecParam)
        }
    }

    @Test func anItemListOfKeysKeepsThoseKeys() throws {
        let first = try IdentityFixture.make(commonName: "first key")
        let second = try IdentityFixture.make(commonName: "second key")
        try withFreshKeychain {
            for key in [first.privateKey, second.privateKey] {
                #expect(SecItemAdd([kSecClass: kSecClassKey, kSecValueRef: key] as CFDictionary, nil) == errSecSuccess)
            }
            let query: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecMatchItemList: [second.privateKey], kSecReturnRef: true,
                kSecMatchLimit: kSecMatchLimitAll,
            ]
            let (status, found) = lookUp(query)
            #expect(status == errSecSuccess)
            #expect((found as? [SecKey]) == [second.privateKey])
            // A certificate names no key.
            var certificate = query
            certificate[kSecMatchItemList] = [first.certificate]
            #expect(lookUp(certificate).0 == errSecItemNotFound)
        }
    }

    // MARK: limits, return types, identities

    @Test func aLimitOfOneReturnsTheFirstItemThatPassesEveryFilter() throws {
        let fixtures = try CertificateFixtures.shared()
        let expired = try fixtures.certificate("expired")
        let client = try fixtures.certificate("client")
        let leaf = try fixtures.certificate("leaf")
        try withFreshKeychain {
            add([expired, client, leaf])
            let query: [CFString: Any] = [
                kSecClass: kSecClassCertificate, kSecMatchValidOnDate: NSNull(),
                kSecMatchSubjectStartsWith: "www", kSecReturnRef: true,
            ]
            let (status, found) = lookUp(query)
            #expect(status == errSecSuccess)
            #expect(found as? SecCertificate == leaf)
            var two = query
            two[kSecMatchSubjectStartsWith] = nil
            two[kSecMatchLimit] = 2
            #expect((lookUp(two).1 as? [SecCertificate]).map(Set.init) == [client, leaf])
        }
    }

    @Test func everyReturnTypeComesBackForTheFilteredItems() throws {
        let fixtures = try CertificateFixtures.shared()
        let root = try fixtures.certificate("root")
        let leaf = try fixtures.certificate("leaf")
        try withFreshKeychain {
            add([root, leaf])
            let base: [CFString: Any] = [
                kSecClass: kSecClassCertificate, kSecMatchSubjectWholeString: "www.example.test",
            ]
            var data = base
            data[kSecReturnData] = true
            #expect(lookUp(data).1 as? Data == SecCertificateCopyData(leaf) as Data)
            var attributes = base
            attributes[kSecReturnAttributes] = true
            let dictionary = try #require(lookUp(attributes).1 as? [String: Any])
            #expect(dictionary[kSecAttrLabel as String] as? String == "www.example.test")
            #expect(dictionary[kSecValuePersistentRef as String] == nil)
            #expect(dictionary[kSecValueData as String] == nil)
            var persistent = base
            persistent[kSecReturnPersistentRef] = true
            let reference = try #require(lookUp(persistent).1 as? Data)
            #expect(lookUp([kSecValuePersistentRef: reference, kSecReturnRef: true]).1 as? SecCertificate == leaf)
            var all = base
            all[kSecReturnRef] = true
            all[kSecReturnAttributes] = true
            all[kSecMatchLimit] = kSecMatchLimitAll
            let results = try #require(lookUp(all).1 as? [[String: Any]])
            #expect(results.count == 1)
            #expect(results.first?[kSecValueRef as String] as? SecCertificate == leaf)
        }
    }

    @Test func identitiesAreMatchedByTheirCertificates() throws {
        let fixture = try IdentityFixture.make(commonName: "id.example.test")
        try withFreshKeychain {
            #expect(SecItemAdd([kSecClass: kSecClassKey, kSecValueRef: fixture.privateKey] as CFDictionary, nil) == 0)
            add([fixture.certificate])
            let query: [CFString: Any] = [
                kSecClass: kSecClassIdentity, kSecMatchSubjectEndsWith: ".example.test",
                kSecMatchIssuers: [try subject(fixture.certificate)], kSecMatchValidOnDate: NSNull(),
                kSecReturnRef: true,
            ]
            let (status, found) = lookUp(query)
            #expect(status == errSecSuccess)
            var certificate: SecCertificate?
            let identity = try #require(found as? SecIdentity)
            #expect(SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess)
            #expect(certificate == fixture.certificate)
            var other = query
            other[kSecMatchSubjectEndsWith] = ".example.org"
            #expect(lookUp(other).0 == errSecItemNotFound)
        }
    }

    // MARK: keys Apple refuses, and the other functions

    @Test func aDryRunOfACopyWithCertificateKeysIsUnimplemented() throws {
        let query: [CFString: Any] = [kSecClass: kSecClassCertificate, kSecMatchValidOnDate: NSNull()]
        let error = try #require(throws: KeychainError.self) {
            try SecItemRequest.copyMatching(query as NSDictionary)
        }
        #expect(error.status == errSecUnimplemented)
        let plain: [CFString: Any] = [kSecClass: kSecClassCertificate]
        #expect(throws: Never.self) { try SecItemRequest.copyMatching(plain as NSDictionary) }
    }

    @Test func theMacOSFileKeychainKeysAreErrSecParam() throws {
        try withFreshKeychain {
            #expect(certificates([kSecMatchSearchList: [Any]()]).0 == errSecParam)
            #expect(certificates([kSecUseItemList: [Any]()]).0 == errSecParam)
            #expect(certificates([kSecUseKeychain: "login.keychain"]).0 == errSecParam)
        }
    }

    @Test func deleteAndUpdateRefuseTheCertificateKeysAndChangeNothing() throws {
        let fixtures = try CertificateFixtures.shared()
        let root = try fixtures.certificate("root")
        let leaf = try fixtures.certificate("leaf")
        try withFreshKeychain {
            add([root, leaf])
            let query: [CFString: Any] = [
                kSecClass: kSecClassCertificate, kSecMatchSubjectWholeString: "www.example.test",
            ]
            #expect(SecItemDelete(query as CFDictionary) == errSecParam)
            let byIssuer: [CFString: Any] = [kSecClass: kSecClassCertificate, kSecMatchIssuers: [try subject(root)]]
            #expect(SecItemDelete(byIssuer as CFDictionary) == errSecParam)
            let change: [CFString: Any] = [kSecAttrLabel: "renamed"]
            #expect(SecItemUpdate(query as CFDictionary, change as CFDictionary) == errSecParam)
            #expect(Set(certificates([:]).1) == [root, leaf])
            #expect(certificates([kSecAttrLabel: "renamed"]).0 == errSecItemNotFound)
            let adding: [CFString: Any] = [kSecValueRef: root, kSecMatchValidOnDate: NSNull()]
            #expect(SecItemAdd(adding as CFDictionary, nil) == errSecParam)
        }
    }
}
