import Foundation
import Security
import Testing

/// SecTrust over a chain made with the `openssl` command at test time: root → intermediate → leaves.
@Suite struct TrustTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    private func trust(
        _ names: [String], policy: SecPolicy = SecPolicyCreateSSL(true, "www.example.test" as CFString),
        anchors: [String]? = ["root"]
    ) throws -> SecTrust {
        let certificates = try names.map(fixtures.certificate)
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(certificates as CFArray, policy, &trust) == errSecSuccess)
        let created = try #require(trust)
        if let anchors {
            #expect(
                SecTrustSetAnchorCertificates(created, try anchors.map(fixtures.certificate) as CFArray)
                    == errSecSuccess)
        }
        return created
    }

    private func evaluate(_ trust: SecTrust) -> (trusted: Bool, error: NSError?) {
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        return (trusted, error)
    }

    private func detail(_ error: NSError?) -> String? {
        (error?.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription
    }

    @Test func theChainEvaluatesToItsAnchor() throws {
        let trust = try trust(["leaf", "intermediate"])
        let (trusted, error) = evaluate(trust)
        #expect(trusted)
        #expect(error == nil)
        #expect(SecTrustGetCertificateCount(trust) == 3)
        let chain = try #require(SecTrustCopyCertificateChain(trust) as? [SecCertificate])
        #expect(chain == (try ["leaf", "intermediate", "root"].map(fixtures.certificate)))
        #expect(CFGetTypeID(trust) == SecTrustGetTypeID())
    }

    @Test(arguments: ["www.example.test", "api.example.test", "API.Example.Test", "www.example.test.", "192.0.2.7"])
    func everyAlternativeNameMatches(host: String) throws {
        let trust = try trust(["leaf", "intermediate"], policy: SecPolicyCreateSSL(true, host as CFString))
        #expect(evaluate(trust).trusted)
    }

    @Test(arguments: [
        ("a.wild.example.test", true), ("A.WILD.example.test", true), ("b.a.wild.example.test", false),
        ("wild.example.test", false), ("foo.part.example.test", false),
    ])
    func aWildcardCoversOneWholeLabel(host: String, matches: Bool) throws {
        let trust = try trust(["wild", "intermediate"], policy: SecPolicyCreateSSL(true, host as CFString))
        let (trusted, error) = evaluate(trust)
        #expect(trusted == matches)
        #expect(error?.code == (matches ? nil : Int(errSecHostNameMismatch)))
    }

    @Test func anExpiredLeafFailsWithErrSecCertificateExpired() throws {
        let (trusted, error) = evaluate(try trust(["expired", "intermediate"], policy: SecPolicyCreateBasicX509()))
        #expect(!trusted)
        #expect(error?.domain == "NSOSStatusErrorDomain")
        #expect(error?.code == Int(errSecCertificateExpired))
        #expect(error?.localizedDescription == "“expired.example.test” certificate is expired")
        #expect(
            detail(error)
                == "Certificate 0 “expired.example.test” has errors: Certificate is not temporally valid;")
    }

    @Test func theVerifyDateDecidesValidity() throws {
        let trust = try trust(["leaf", "intermediate"])
        #expect(SecTrustSetVerifyDate(trust, Date(timeIntervalSinceNow: 2 * 365 * 86_400) as CFDate) == errSecSuccess)
        #expect(evaluate(trust).error?.code == Int(errSecCertificateExpired))
        #expect(SecTrustSetVerifyDate(trust, Date(timeIntervalSince1970: 946_684_800) as CFDate) == errSecSuccess)
        #expect(evaluate(trust).error?.code == Int(errSecCertificateExpired))
        #expect(SecTrustSetVerifyDate(trust, Date() as CFDate) == errSecSuccess)
        #expect(evaluate(trust).trusted)
        let expired = try self.trust(["expired", "intermediate"], policy: SecPolicyCreateBasicX509())
        #expect(SecTrustSetVerifyDate(expired, Date(timeIntervalSince1970: 1_593_561_600) as CFDate) == errSecSuccess)
        // Then the leaf was valid but its issuers, made today, were not yet: the error names the first of them.
        let error = evaluate(expired).error
        #expect(error?.code == Int(errSecCertificateExpired))
        #expect(error?.localizedDescription == "“Example Test Intermediate” certificate is expired")
    }

    @Test func aWrongHostFailsWithErrSecHostNameMismatch() throws {
        let (trusted, error) = evaluate(
            try trust(
                ["leaf", "intermediate"],
                policy: SecPolicyCreateSSL(true, "evil.example.test" as CFString)))
        #expect(!trusted)
        #expect(error?.code == Int(errSecHostNameMismatch))
        #expect(error?.localizedDescription == "“www.example.test” certificate name does not match input")
        #expect(detail(error)?.contains("SSL hostname does not match name(s) in certificate") == true)
        // The common name alone never matches: Apple reads host names from the alternative names only.
        let other = try trust(
            ["expired", "intermediate"],
            policy: SecPolicyCreateSSL(true, "expired.example.test" as CFString))
        #expect(evaluate(other).error?.code == Int(errSecHostNameMismatch))
    }

    /// A host name OpenSSL cannot check (one with a NUL inside, an empty one, a lone dot) fails the evaluation
    /// with errSecHostNameMismatch: it never turns the host name check off.
    @Test(arguments: ["www.example.test\0.evil.test", "", ".", "\0"])
    func aHostNameThatCannotBeCheckedIsAMismatch(host: String) throws {
        let (trusted, error) = evaluate(
            try trust(["leaf", "intermediate"], policy: SecPolicyCreateSSL(true, host as CFString)))
        #expect(!trusted)
        #expect(error?.code == Int(errSecHostNameMismatch))
    }

    /// A date no certificate can be checked at (not a number, infinite, past the year 9999) is errSecParam, and
    /// the trust keeps the date it had.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300])
    func aVerifyDateOutOfRangeIsRefused(seconds: Double) throws {
        let trust = try trust(["leaf", "intermediate"])
        #expect(SecTrustSetVerifyDate(trust, Date(timeIntervalSinceReferenceDate: seconds) as CFDate) == errSecParam)
        #expect(evaluate(trust).trusted)
    }

    /// Apple's SSL policy refuses weak cryptography anywhere below the anchor: a SHA-1 signature, an RSA key under
    /// 2,048 bits. The basic policy takes a SHA-1 signature.
    @Test func theSSLPolicyRefusesSHA1SignaturesAndSmallRSAKeys() throws {
        let tag = UUID().uuidString.prefix(8)
        _ = try fixtures.output(
            """
            openssl x509 -req -in leaf.csr -CA intermediate.pem -CAkey intermediate.key -CAcreateserial -days 30 \
                -sha1 -extfile ext.cnf -extensions leaf -out sha1-\(tag).pem 2>/dev/null
            openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out small-\(tag).key 2>/dev/null
            openssl req -new -key small-\(tag).key -subj "/CN=www.example.test" -out small-\(tag).csr
            openssl x509 -req -in small-\(tag).csr -CA intermediate.pem -CAkey intermediate.key -CAcreateserial \
                -days 30 -extfile ext.cnf -extensions leaf -out small-\(tag).pem 2>/dev/null
            for name in sha1-\(tag) small-\(tag); do openssl x509 -in "$name.pem" -outform DER -out "$name.der"; done
            """)
        for weak in ["sha1-\(tag)", "small-\(tag)"] {
            let (trusted, error) = evaluate(try trust([weak, "intermediate"]))
            #expect(!trusted, "\(weak)")
            #expect(error != nil)
        }
        #expect(evaluate(try trust(["sha1-\(tag)", "intermediate"], policy: SecPolicyCreateBasicX509())).trusted)
    }

    /// Anchors only, with no anchors set, trusts nothing: not the system's CA certificates either. (One of the
    /// system's own roots, evaluated as a leaf, is trusted by them otherwise.)
    @Test(.enabled(if: systemRoot() != nil, "needs a CA certificate in /etc/ssl/certs that is valid today"))
    func anchorsOnlyWithoutAnchorsTrustsNothing() throws {
        let root = try #require(Self.systemRoot())
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(root, SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
        let created = try #require(trust)
        #expect(evaluate(created).trusted)
        #expect(SecTrustSetAnchorCertificatesOnly(created, true) == errSecSuccess)
        #expect(!evaluate(created).trusted)
    }

    /// The first certificate of the system's CA directory that the system's anchors trust today.
    static func systemRoot() -> SecCertificate? {
        let directory = "/etc/ssl/certs"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.sorted() ?? []
        for name in names where name.hasSuffix(".pem") {
            guard let text = try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8),
                let body = text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().first?
                    .components(separatedBy: "-----END CERTIFICATE-----").first,
                let der = Data(base64Encoded: body, options: .ignoreUnknownCharacters),
                let certificate = SecCertificateCreateWithData(nil, der as CFData)
            else { continue }
            var trust: SecTrust?
            guard SecTrustCreateWithCertificates(certificate, SecPolicyCreateBasicX509(), &trust) == errSecSuccess,
                let trust, SecTrustEvaluateWithError(trust, nil)
            else { continue }
            return certificate
        }
        return nil
    }

    /// A client policy's host name is checked too, as Apple checks it.
    @Test func aClientPolicysHostNameIsChecked() throws {
        let named = try trust(
            ["client", "intermediate"], policy: SecPolicyCreateSSL(false, "www.example.test" as CFString))
        #expect(evaluate(named).trusted)
        let other = try trust(
            ["client", "intermediate"], policy: SecPolicyCreateSSL(false, "evil.example.test" as CFString))
        #expect(evaluate(other).error?.code == Int(errSecHostNameMismatch))
    }

    @Test func aMissingIntermediateFailsWithErrSecCreateChainFailed() throws {
        let (trusted, error) = evaluate(try trust(["leaf"]))
        #expect(!trusted)
        #expect(error?.code == Int(errSecCreateChainFailed))
        #expect(error?.localizedDescription == "“www.example.test” certificate is not trusted")
        #expect(detail(error)?.contains("Unable to build chain to root (possible missing intermediate)") == true)
        #expect(SecTrustGetCertificateCount(try trust(["leaf"])) == 1)
    }

    /// Apple's SSL policies ask no key usage of the leaf (SecPolicyCreateSSL passes none): a server certificate
    /// whose keyUsage names nonRepudiation only is trusted.
    @Test func aServerLeafsKeyUsageIsNotChecked() throws {
        let (trusted, error) = evaluate(try trust(["badusage", "intermediate"]))
        #expect(trusted)
        #expect(error == nil)
        #expect(evaluate(try trust(["badusage", "intermediate"], policy: SecPolicyCreateBasicX509())).trusted)
    }

    @Test func anUnknownCriticalExtensionFailsWithErrSecUnknownCriticalExtensionFlag() throws {
        let error = evaluate(try trust(["critical", "intermediate"])).error
        #expect(error?.code == Int(errSecUnknownCriticalExtensionFlag))
        #expect(error?.localizedDescription == "“critical.example.test” certificate is not standards compliant")
    }

    @Test func aChainTooDeepForAPathLengthFailsWithErrSecPathLengthConstraintExceeded() throws {
        let error = evaluate(try trust(["deep", "sub", "intermediate"])).error
        #expect(error?.code == Int(errSecPathLengthConstraintExceeded))
        #expect(detail(error)?.contains("Chain exceeded constrained path length") == true)
    }

    @Test func anUntrustedRootFailsWithErrSecNotTrusted() throws {
        let (trusted, error) = evaluate(try trust(["leaf", "intermediate", "root"], anchors: nil))
        #expect(!trusted)
        #expect(error?.code == Int(errSecNotTrusted))
        #expect(error?.localizedDescription == "“Example Test Root” certificate is not trusted")
        #expect(detail(error) == "Certificate 2 “Example Test Root” has errors: Root is not trusted;")
    }

    @Test func aClientCertificateIsNotAServerCertificate() throws {
        let server = evaluate(try trust(["client", "intermediate"]))
        #expect(server.error?.code == Int(errSecInvalidExtendedKeyUsage))
        #expect(
            server.error?.localizedDescription
                == "“client.example.test” certificate is not permitted for this usage")
        let client = try trust(["client", "intermediate"], policy: SecPolicyCreateSSL(false, nil))
        #expect(evaluate(client).trusted)
        let serverAsClient = try trust(["leaf", "intermediate"], policy: SecPolicyCreateSSL(false, nil))
        #expect(evaluate(serverAsClient).error?.code == Int(errSecInvalidExtendedKeyUsage))
    }

    /// A TLS server certificate issued after 1 July 2019 must name serverAuth, under an app's anchors too: one
    /// without extendedKeyUsage, or with anyExtendedKeyUsage alone, is not permitted for this usage (Apple's
    /// ServerAuthEKU check). One issued before then is trusted, as is any under the basic policy.
    @Test func aRecentServerCertificateMustNameServerAuth() throws {
        for name in ["noeku", "anyeku"] {
            let (trusted, error) = evaluate(try trust([name, "intermediate"]))
            #expect(!trusted, "\(name)")
            #expect(error?.code == Int(errSecInvalidExtendedKeyUsage), "\(name)")
            #expect(
                detail(error)
                    == "Certificate 0 “\(name).example.test” has errors: Extended key usage does not match "
                    + "certificate usage;")
            #expect(evaluate(try trust([name, "intermediate"], policy: SecPolicyCreateBasicX509())).trusted)
            #expect(evaluate(try trust([name, "intermediate"], policy: SecPolicyCreateSSL(false, nil))).trusted)
        }
        #expect(evaluate(try trust(["old", "intermediate"])).trusted)
    }

    /// Several SSL policies are several checks: the leaf must name each policy's host, not only the first's.
    @Test func everySSLPolicysHostIsChecked() throws {
        func evaluated(_ hosts: [String]) throws -> (trusted: Bool, error: NSError?) {
            let certificates = try ["leaf", "intermediate"].map(fixtures.certificate)
            let policies = hosts.map { SecPolicyCreateSSL(true, $0 as CFString) }
            var trust: SecTrust?
            #expect(SecTrustCreateWithCertificates(certificates as CFArray, policies as CFArray, &trust) == 0)
            let created = try #require(trust)
            #expect(SecTrustSetAnchorCertificates(created, [try fixtures.certificate("root")] as CFArray) == 0)
            return evaluate(created)
        }
        #expect(try evaluated(["www.example.test", "api.example.test", "192.0.2.7"]).trusted)
        for hosts in [["www.example.test", "evil.example.test"], ["www.example.test", "192.0.2.8"]] {
            let (trusted, error) = try evaluated(hosts)
            #expect(!trusted, "\(hosts)")
            #expect(error?.code == Int(errSecHostNameMismatch), "\(hosts)")
        }
    }

    /// The user's exception for the missing serverAuth is recorded under Apple's name for the check.
    @Test func theServerAuthExceptionIsRecordedAndHonoured() throws {
        let first = try trust(["noeku", "intermediate"])
        #expect(!evaluate(first).trusted)
        let exceptions = try #require(SecTrustCopyExceptions(first))
        let again = try trust(["noeku", "intermediate"])
        #expect(SecTrustSetExceptions(again, exceptions))
        #expect(evaluate(again).trusted)
    }

    @Test func theMostImportantFailureDecides() throws {
        // Trust outranks the host name, which outranks expiry.
        let untrusted = try trust(
            ["leaf", "intermediate", "root"],
            policy: SecPolicyCreateSSL(true, "evil.example.test" as CFString), anchors: nil)
        #expect(evaluate(untrusted).error?.code == Int(errSecNotTrusted))
        let expiredAndWrongHost = try trust(
            ["expired", "intermediate"],
            policy: SecPolicyCreateSSL(true, "evil.example.test" as CFString))
        let error = evaluate(expiredAndWrongHost).error
        #expect(error?.code == Int(errSecHostNameMismatch))
        #expect(
            detail(error) == "Certificate 0 “expired.example.test” has errors: "
                + "SSL hostname does not match name(s) in certificate, Certificate is not temporally valid;")
    }

    @Test func onlyTheCustomAnchorsAreTrustedUntilTheSystemIsAddedBack() throws {
        let system = try #require(try? Data(contentsOf: URL(fileURLWithPath: "/etc/ssl/certs/ISRG_Root_X1.pem")))
        let base64 = String(decoding: system, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: base64))
        let systemRoot = try #require(SecCertificateCreateWithData(nil, der as CFData))
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(systemRoot, SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
        let created = try #require(trust)
        #expect(evaluate(created).trusted)
        #expect(SecTrustSetAnchorCertificates(created, [try fixtures.certificate("root")] as CFArray) == errSecSuccess)
        #expect(evaluate(created).error?.code == Int(errSecNotTrusted))
        #expect(SecTrustSetAnchorCertificatesOnly(created, false) == errSecSuccess)
        #expect(evaluate(created).trusted)
        #expect(SecTrustSetAnchorCertificatesOnly(created, true) == errSecSuccess)
        #expect(evaluate(created).trusted == false)
        #expect(SecTrustSetAnchorCertificates(created, nil) == errSecSuccess)
        #expect(evaluate(created).trusted)
    }

    @Test func aSingleCertificateAndNoPolicyMeanBasicX509() throws {
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(try fixtures.certificate("intermediate"), nil, &trust) == errSecSuccess)
        let created = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(created, [try fixtures.certificate("root")] as CFArray) == errSecSuccess)
        #expect(evaluate(created).trusted)
        var policies: CFArray?
        #expect(SecTrustCopyPolicies(created, &policies) == errSecSuccess)
        #expect(policies as? [SecPolicy] == [SecPolicyCreateBasicX509()])
        let accessor: any DeprecatedChainAccess = ChainAccessor()
        let chain = (0...SecTrustGetCertificateCount(created)).map { accessor.certificate(of: created, at: $0) }
        #expect(chain == [try fixtures.certificate("intermediate"), try fixtures.certificate("root"), nil])
    }

    @Test func createRefusesWhatIsNotACertificateOrAPolicy() throws {
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates("leaf" as CFString, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates([] as CFArray, nil, &trust) == errSecParam)
        let leaf = try fixtures.certificate("leaf")
        #expect(SecTrustCreateWithCertificates([leaf, "x"] as CFArray, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates(leaf, [leaf] as CFArray, &trust) == errSecParam)
        #expect(trust == nil)
        #expect(SecTrustCreateWithCertificates(leaf, [SecPolicyCreateBasicX509()] as CFArray, &trust) == errSecSuccess)
        let created = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(created, ["x"] as CFArray) == errSecParam)
        #expect(SecTrustSetPolicies(created, "x" as CFString) == errSecParam)
    }

    @Test func theTrustResultFollowsTheEvaluation() throws {
        let trust = try trust(["leaf", "intermediate"])
        var result = SecTrustResultType.otherError
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        #expect(result == .invalid)
        #expect(evaluate(trust).trusted)
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        #expect(result == .unspecified)
        #expect(SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, "evil.example.test" as CFString)) == errSecSuccess)
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        #expect(result == .invalid)
        #expect(!evaluate(trust).trusted)
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        #expect(result == .recoverableTrustFailure)
    }

    @Test func anAsynchronousEvaluationAnswersOnTheGivenQueue() async throws {
        let trust = try trust(["leaf"])
        let queue = DispatchQueue(label: "trust-test")
        let marker = DispatchSpecificKey<Int>()
        queue.setSpecific(key: marker, value: 7)
        let answer: (Bool, Int?, Bool) = await withCheckedContinuation { continuation in
            let status = SecTrustEvaluateAsyncWithError(trust, queue) { _, trusted, error in
                let onQueue = DispatchQueue.getSpecific(key: marker) == 7
                continuation.resume(returning: (trusted, error?.code, onQueue))
            }
            #expect(status == errSecSuccess)
        }
        #expect(answer.0 == false)
        #expect(answer.1 == Int(errSecCreateChainFailed))
        #expect(answer.2)
    }

    @Test func policiesDescribeThemselves() throws {
        let ssl = SecPolicyCreateSSL(true, "www.example.test" as CFString)
        let properties = try #require(SecPolicyCopyProperties(ssl) as? [String: Any])
        #expect(properties[kSecPolicyOid as String] as? String == kSecPolicyAppleSSL as String)
        #expect(properties[kSecPolicyName as String] as? String == "www.example.test")
        let basic = try #require(SecPolicyCopyProperties(SecPolicyCreateBasicX509()) as? [String: Any])
        #expect(basic[kSecPolicyOid as String] as? String == "1.2.840.113635.100.1.2")
        #expect(CFGetTypeID(ssl) == SecPolicyGetTypeID())
    }

    /// A policy made from its identifier and properties is the one the dedicated function makes; identifiers of
    /// policies that do not exist here, and properties of the wrong type, make none.
    @Test func policiesFromIdentifierAndProperties() throws {
        let named = SecPolicyCreateWithProperties(
            kSecPolicyAppleSSL, [kSecPolicyName as String: "www.example.test"] as CFDictionary)
        #expect(named == SecPolicyCreateSSL(true, "www.example.test" as CFString))
        let client = SecPolicyCreateWithProperties(
            kSecPolicyAppleSSL, [kSecPolicyClient as String: true] as CFDictionary)
        #expect(client == SecPolicyCreateSSL(false, nil))
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleSSL, nil) == SecPolicyCreateSSL(true, nil))
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleX509Basic, nil) == SecPolicyCreateBasicX509())
        // What SecPolicyCopyProperties gives back makes the same policy again.
        let properties = try #require(SecPolicyCopyProperties(named!))
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleSSL, properties) == named)
        // iOS 18.4's SSL server and client identifiers.
        let server = SecPolicyCreateWithProperties(
            kSecPolicyAppleSSLServer, [kSecPolicyName as String: "www.example.test"] as CFDictionary)
        #expect(server == SecPolicyCreateSSL(true, "www.example.test" as CFString))
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleSSLClient, nil) == SecPolicyCreateSSL(false, nil))
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleRevocation, nil) == nil)
        // Apple's other policies, named by their identifiers, do not exist here.
        #expect(kSecPolicyAppleSMIME as String == "1.2.840.113635.100.1.8")
        for other in [
            kSecPolicyAppleSMIME, kSecPolicyAppleEAP, kSecPolicyAppleIPsec, kSecPolicyAppleCodeSigning,
            kSecPolicyAppleIDValidation, kSecPolicyAppleTimeStamping, kSecPolicyApplePassbookSigning,
            kSecPolicyApplePayIssuerEncryption, kSecPolicyMacAppStoreReceipt,
        ] {
            #expect(SecPolicyCreateWithProperties(other, nil) == nil, "\(other)")
        }
        #expect(
            SecPolicyCreateWithProperties(kSecPolicyAppleSSL, [kSecPolicyName as String: 42] as CFDictionary) == nil)
        #expect(
            SecPolicyCreateWithProperties(kSecPolicyAppleSSL, [kSecPolicyClient as String: "yes"] as CFDictionary)
                == nil)
    }

    @Test func trustStatusesHaveApplesMessages() {
        #expect(
            SecCopyErrorMessageString(errSecHostNameMismatch, nil) as String?
                == "A host name mismatch has occurred.")
        #expect(
            SecCopyErrorMessageString(errSecCertificateExpired, nil) as String?
                == "An expired certificate was detected.")
        #expect(
            SecCopyErrorMessageString(errSecCreateChainFailed, nil) as String?
                == "One or more certificates required to validate this certificate cannot be found.")
        for status in [
            errSecNoBasicConstraints, errSecNoBasicConstraintsCA, errSecInvalidKeyUsageForPolicy,
            errSecInvalidExtendedKeyUsage, errSecPathLengthConstraintExceeded, errSecUnknownCriticalExtensionFlag,
            errSecCertificateNotValidYet, -26276,
        ] {
            #expect((SecCopyErrorMessageString(status, nil) as String?)?.hasPrefix("OSStatus") == false)
        }
    }
}

/// Reaches the deprecated `SecTrustGetCertificateAtIndex` through a protocol, so its test builds without warnings.
private protocol DeprecatedChainAccess {
    func certificate(of trust: SecTrust, at index: CFIndex) -> SecCertificate?
}

private struct ChainAccessor: DeprecatedChainAccess {
    @available(*, deprecated, message: "exercises SecTrustGetCertificateAtIndex")
    func certificate(of trust: SecTrust, at index: CFIndex) -> SecCertificate? {
        SecTrustGetCertificateAtIndex(trust, index)
    }
}
