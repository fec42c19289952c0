import Foundation
import Security
import Testing
import X509Certificates

/// SecCertificate on certificates made by `openssl req`/`openssl x509` at test time.
@Suite struct CertificateTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    @Test func createWithDataTakesOneDERCertificate() throws {
        let der = try fixtures.data("leaf.der")
        #expect(SecCertificateCreateWithData(nil, der as CFData) != nil)
        #expect(SecCertificateCreateWithData(kCFAllocatorDefault, der as CFData) != nil)
        #expect(SecCertificateCreateWithData(nil, try fixtures.data("leaf.pem") as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, Data("not a certificate".utf8) as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, Data() as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, der.prefix(der.count - 1) as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, try fixtures.data("leaf.pkcs8") as CFData) == nil)
        // BER that is not DER: the outer length in a longer form than it needs.
        let bytes = Array(der)
        #expect(bytes[1] == 0x82)
        let longer = [0x30, 0x83, 0x00] + bytes[2...]
        #expect(SecCertificateCreateWithData(nil, Data(longer) as CFData) == nil)
    }

    /// Apple's SecCertificateParse decodes the first DER element and keeps that element alone as the certificate:
    /// bytes after it are ignored, and SecCertificateCopyData gives the certificate's own bytes.
    @Test func bytesAfterTheCertificateAreIgnored() throws {
        let der = try fixtures.data("leaf.der")
        let other = try fixtures.data("root.der")
        for trailing in [Data([0]), Data("\n".utf8), other] {
            let certificate = try #require(SecCertificateCreateWithData(nil, (der + trailing) as CFData))
            #expect(SecCertificateCopyData(certificate) as Data == der)
            #expect(certificate == (try fixtures.certificate("leaf")))
            #expect(SecCertificateCopySubjectSummary(certificate) as String? == "www.example.test")
        }
    }

    @Test func copyDataGivesBackTheDER() throws {
        let der = try fixtures.data("intermediate.der")
        let certificate = try #require(SecCertificateCreateWithData(nil, der as CFData))
        #expect(SecCertificateCopyData(certificate) as Data == der)
        #expect(CFGetTypeID(certificate) == SecCertificateGetTypeID())
        #expect(try fixtures.certificate("intermediate") == certificate)
        #expect(try fixtures.certificate("root") != certificate)
    }

    @Test func subjectSummaryIsTheCommonNameElseAnEmailElseTheUnit() throws {
        #expect(SecCertificateCopySubjectSummary(try fixtures.certificate("leaf")) as String? == "www.example.test")
        #expect(SecCertificateCopySubjectSummary(try fixtures.certificate("mixed")) as String? == "mixed  Case ")
        #expect(SecCertificateCopySubjectSummary(try fixtures.certificate("mail")) as String? == "san@example.test")
        #expect(SecCertificateCopySubjectSummary(try fixtures.certificate("unit")) as String? == "Unit Only")
    }

    /// Apple's SecCertificateCopySubjectSummary (Security's SecCertificate.c) takes the subject attributes of the
    /// best type present (common name, then organizational unit, then organization, then any other), joins their
    /// values latest first with ", ", adds the description attributes in parentheses after common names, and
    /// without a common name prefers the first e-mail address, then the first DNS name, of the certificate.
    @Test func subjectSummaryJoinsTheBestAttributeTypeLatestFirst() throws {
        let openssl = try OpenSSLCommand()
        defer { openssl.remove() }
        try openssl.run([
            "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", openssl.path("key.pem"),
        ])
        func summary(_ subject: String, extensions: [String] = []) throws -> String? {
            let name = "c\(UUID().uuidString).der"
            let arguments =
                [
                    "req", "-x509", "-new", "-key", openssl.path("key.pem"), "-subj", subject, "-days", "30",
                    "-outform", "DER", "-out", openssl.path(name),
                ] + extensions.flatMap { ["-addext", $0] }
            #expect(try openssl.run(arguments).status == 0, "\(subject)")
            let certificate = try #require(SecCertificateCreateWithData(nil, try openssl.read(name) as CFData))
            return SecCertificateCopySubjectSummary(certificate) as String?
        }
        #expect(try summary("/CN=First CN/CN=Second CN") == "Second CN, First CN")
        #expect(try summary("/O=Org/OU=Unit One/OU=Unit Two") == "Unit Two, Unit One")
        #expect(try summary("/O=First Org/O=Second Org") == "Second Org, First Org")
        #expect(try summary("/C=US/L=Cupertino") == "Cupertino, US")
        #expect(try summary("/O=Org/CN=Name/description=Desc") == "Name (Desc)")
        #expect(try summary("/CN=Name/description=One/description=Two") == "Name (Two, One)")
        #expect(try summary("/O=Org/description=Desc") == "Org")
        #expect(try summary("/C=US/description=Desc") == "Desc, US")
        // Without a common name, the certificate's first e-mail address, else its first DNS name.
        #expect(
            try summary("/O=Org/OU=Unit", extensions: ["subjectAltName=DNS:host.example.test"]) == "host.example.test")
        #expect(
            try summary("/C=US/emailAddress=subject@example.test", extensions: ["subjectAltName=DNS:host.example.test"])
                == "subject@example.test")
        #expect(
            try summary("/CN=One/CN=Two", extensions: ["subjectAltName=email:san@example.test"]) == "Two, One")
    }

    @Test func commonNameOrErrSecInternal() throws {
        var name: CFString?
        #expect(SecCertificateCopyCommonName(try fixtures.certificate("root"), &name) == errSecSuccess)
        #expect(name as String? == "Example Test Root")
        var none: CFString?
        #expect(SecCertificateCopyCommonName(try fixtures.certificate("mail"), &none) == -26276)
        #expect(none == nil)
    }

    @Test func emailAddressesComeFromTheAlternativeNamesThenTheSubject() throws {
        var addresses: CFArray?
        #expect(SecCertificateCopyEmailAddresses(try fixtures.certificate("mail"), &addresses) == errSecSuccess)
        #expect(addresses as? [String] == ["san@example.test", "first@example.test"])
        var empty: CFArray?
        #expect(SecCertificateCopyEmailAddresses(try fixtures.certificate("root"), &empty) == errSecSuccess)
        #expect(empty?.count == 0)
    }

    @Test func serialNumberIsTheIntegerContent() throws {
        var error: Unmanaged<CFError>?
        let serial = SecCertificateCopySerialNumberData(try fixtures.certificate("mixed"), &error)
        #expect(serial as Data? == Data([0x00, 0xFF, 0x01, 0x02]))
        #expect(error == nil)
    }

    /// iOS 18 and macOS 15's validity dates: the fixture was issued for 2020-01-01 to 2021-01-01 (UTC).
    @Test func validityDatesAreTheCertificatesOwn() throws {
        let expired = try fixtures.certificate("expired")
        #expect(SecCertificateCopyNotValidBeforeDate(expired) as Date? == Date(timeIntervalSince1970: 1_577_836_800))
        #expect(SecCertificateCopyNotValidAfterDate(expired) as Date? == Date(timeIntervalSince1970: 1_609_459_200))
    }

    @Test func normalizedNamesFoldPrintableStringsAsAppleDoes() throws {
        let mixed = try fixtures.certificate("mixed")
        let folded = try fixtures.certificate("folded")
        // The folded certificate's subject is written already upper-cased with single spaces; the OU value is a
        // T61String (it holds "_"), which keeps its double space in both.
        let expected = Data(folded.x509.subject.der)
        #expect(SecCertificateCopyNormalizedSubjectSequence(mixed) as Data? == expected)
        #expect(SecCertificateCopyNormalizedIssuerSequence(mixed) as Data? == expected)
        #expect(SecCertificateCopyNormalizedSubjectSequence(folded) as Data? == expected)
        #expect(Data(mixed.x509.subject.der) != expected)
    }

    @Test func itemAttributesAreTheOnesAppleDerives() throws {
        let leaf = try fixtures.certificate("leaf")
        let attributes = try #require(leaf.itemAttributes)
        #expect(attributes.certificateType == 3)
        #expect(attributes.certificateEncoding == 3)
        let subject = try #require(SecCertificateCopyNormalizedSubjectSequence(leaf) as Data?)
        #expect(attributes.subject == subject.dropFirst(2))
        let issuer = try #require(SecCertificateCopyNormalizedSubjectSequence(try fixtures.certificate("intermediate")))
        #expect(attributes.issuer == (issuer as Data).dropFirst(2))
        var error: Unmanaged<CFError>?
        #expect(attributes.serialNumber == SecCertificateCopySerialNumberData(leaf, &error) as Data?)
        let keyID = String(
            decoding: try fixtures.output(
                "openssl x509 -in leaf.pem -noout -ext subjectKeyIdentifier | tail -1 | tr -d ' :\\n'"), as: UTF8.self)
        #expect(attributes.subjectKeyID.map(hex) == keyID.uppercased())
        let pointHash = try fixtures.output(
            "openssl x509 -in leaf.pem -pubkey -noout | openssl pkey -pubin -outform DER | tail -c 65"
                + " | openssl dgst -sha1 -binary")
        #expect(attributes.publicKeyHash == pointHash)
        #expect(attributes.label == "www.example.test")
        // The leaf has an e-mail address, and no alias is derived from it, as in Apple's attribute dictionary.
        #expect(attributes.dictionary["alis"] == nil)
        #expect(attributes.dictionary["pkhh"] as? Data == pointHash)
        #expect(attributes.dictionary["ctyp"] as? NSNumber == 3)
    }

    @Test func rsaPublicKeyHashIsOverThePKCS1Key() throws {
        let attributes = try #require(try fixtures.certificate("mixed").itemAttributes)
        let expected = try fixtures.output(
            "openssl x509 -in mixed.pem -pubkey -noout | openssl rsa -pubin -RSAPublicKey_out -outform DER"
                + " 2>/dev/null | openssl dgst -sha1 -binary")
        #expect(attributes.publicKeyHash == expected)
        // `openssl req -x509 -config` with no extension section writes no subject key identifier.
        #expect(attributes.subjectKeyID == nil)
        #expect(attributes.dictionary["alis"] == nil)
        #expect(attributes.dictionary["skid"] == nil)
    }

    @Test func subjectPublicKeyInfoIsTheCertificatesKey() throws {
        let expected = try fixtures.output(
            "openssl x509 -in leaf.pem -pubkey -noout | openssl pkey -pubin -outform DER")
        #expect(Data(try fixtures.certificate("leaf").subjectPublicKeyInfo) == expected)
    }

    @Test func alteredBytesNeverCrashAndWhatParsesStaysConsistent() throws {
        let der = Array(try fixtures.data("leaf.der"))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var altered = der
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<altered.count, using: &generator)
                altered[position] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) { altered.removeLast(Int.random(in: 0...8, using: &generator)) }
            guard let certificate = SecCertificateCreateWithData(nil, Data(altered) as CFData) else { continue }
            #expect(SecCertificateCopyData(certificate) as Data == Data(altered))
            _ = SecCertificateCopySubjectSummary(certificate)
            _ = SecCertificateCopyNormalizedSubjectSequence(certificate)
            _ = certificate.itemAttributes
        }
    }

    private func hex(_ data: Data) -> String { data.map { String(format: "%02X", $0) }.joined() }
}
