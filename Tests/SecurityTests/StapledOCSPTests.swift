import Foundation
import Security
import Testing

/// Stapled OCSP responses (`SecTrustSetOCSPResponse`), made by `openssl ocsp` for the fixtures' leaf: a response
/// that verifies and names the leaf decides; revoked is a fatal failure no exception excuses; any other response
/// is ignored.
@Suite struct StapledOCSPTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    private func trust() throws -> SecTrust {
        var trust: SecTrust?
        let chain = [try fixtures.certificate("leaf"), try fixtures.certificate("intermediate")]
        #expect(SecTrustCreateWithCertificates(chain as CFArray, SecPolicyCreateBasicX509(), &trust) == 0)
        let created = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(created, [try fixtures.certificate("root")] as CFArray) == 0)
        return created
    }

    /// A response for `certificate`, issued by the intermediate, saying `state` (`V` good, `R` revoked since
    /// 2024-01-01 for key compromise) of the certificate the responder's index lists (`listed`, by default the one
    /// asked about; another makes the answer "unknown"), signed by `signer` and valid for seven days from now.
    private func response(
        _ state: String, for certificate: String = "leaf", listing listed: String? = nil,
        signer: String = "intermediate"
    ) throws -> Data {
        // Each call its own files: tests of the suite run in parallel in one fixture directory.
        let name = "ocsp-\(state)-\(certificate)-\(signer)-\(UUID().uuidString.prefix(8))"
        _ = try fixtures.output(
            """
            serial=$(openssl x509 -in \(listed ?? certificate).pem -noout -serial | cut -d= -f2)
            revoked=""; [ \(state) = R ] && revoked=240101000000Z,keyCompromise
            printf '%s\\t%s\\t%s\\t%s\\tunknown\\t%s\\n' \(state) 491231235959Z "$revoked" "$serial" /CN=x > \(name).idx
            openssl ocsp -issuer intermediate.pem -cert \(certificate).pem -no_nonce -reqout \(name).req
            openssl ocsp -index \(name).idx -rsigner \(signer).pem -rkey \(signer).key -CA intermediate.pem \\
                -reqin \(name).req -respout \(name).der -ndays 7
            """)
        return try fixtures.data("\(name).der")
    }

    @Test func aGoodResponseIsRecordedAndChangesNothing() throws {
        let subject = try trust()
        #expect(SecTrustSetOCSPResponse(subject, try response("V") as CFData) == errSecSuccess)
        var error: CFError?
        #expect(SecTrustEvaluateWithError(subject, &error))
        let result = try #require(SecTrustCopyResult(subject) as? [String: Any])
        #expect(result[kSecTrustRevocationChecked as String] as? Bool == true)
        let until = try #require(result[kSecTrustRevocationValidUntilDate as String] as? Date)
        #expect(abs(until.timeIntervalSinceNow - 7 * 86_400) < 3_600)
    }

    @Test func aRevokedResponseFailsTheTrustFatally() throws {
        let subject = try trust()
        // An array of responses, the revoked one among them, as a server may staple several.
        let responses = [Data([0x30, 0x03, 0x0A, 0x01, 0x01]), try response("R")]
        #expect(SecTrustSetOCSPResponse(subject, responses as CFArray) == errSecSuccess)
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(subject, &error))
        let failure = try #require(error as Error?) as NSError
        #expect(failure.code == Int(errSecCertificateRevoked))
        #expect(failure.localizedDescription.contains("certificate is revoked"))
        var result = SecTrustResultType.invalid
        #expect(SecTrustGetTrustResult(subject, &result) == errSecSuccess)
        #expect(result == .fatalTrustFailure)
        // The user's exceptions do not excuse it.
        let exceptions = try #require(SecTrustCopyExceptions(subject))
        #expect(SecTrustSetExceptions(subject, exceptions))
        #expect(!SecTrustEvaluateWithError(subject, nil))
        // Without the responses the chain is trusted again.
        #expect(SecTrustSetOCSPResponse(subject, nil) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(subject, nil))
    }

    @Test func responsesThatDoNotVerifyOrNameTheLeafAreIgnored() throws {
        // Signed by the root, which the intermediate never authorized to answer for its certificates.
        let foreign = try trust()
        #expect(SecTrustSetOCSPResponse(foreign, try response("R", signer: "root") as CFData) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(foreign, nil))
        #expect((SecTrustCopyResult(foreign) as? [String: Any])?[kSecTrustRevocationChecked as String] == nil)
        // About another certificate of the same issuer.
        let other = try trust()
        #expect(SecTrustSetOCSPResponse(other, try response("R", for: "client") as CFData) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(other, nil))
        // "Unknown": the responder does not know the leaf, so revocation was not checked.
        let unknown = try trust()
        #expect(SecTrustSetOCSPResponse(unknown, try response("R", listing: "client") as CFData) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(unknown, nil))
        #expect((SecTrustCopyResult(unknown) as? [String: Any])?[kSecTrustRevocationChecked as String] == nil)
        // Out of date at the evaluation's date: evaluated a month on, the seven-day response no longer counts.
        let stale = try trust()
        #expect(SecTrustSetOCSPResponse(stale, try response("R") as CFData) == errSecSuccess)
        #expect(SecTrustSetVerifyDate(stale, Date(timeIntervalSinceNow: 30 * 86_400) as CFDate) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(stale, nil))
    }

    /// A responder the intermediate certified, `withPurpose` for OCSP signing or not.
    private func responder(_ name: String, withPurpose: Bool) throws {
        let purpose = withPurpose ? "extendedKeyUsage = OCSPSigning" : "extendedKeyUsage = serverAuth"
        _ = try fixtures.output(
            """
            openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out \(name).key
            openssl req -new -key \(name).key -subj "/CN=\(name)" -out \(name).csr
            printf '[responder]\\nbasicConstraints = CA:false\\n\(purpose)\\n' > \(name).cnf
            openssl x509 -req -in \(name).csr -CA intermediate.pem -CAkey intermediate.key -CAcreateserial \\
                -days 30 -extfile \(name).cnf -extensions responder -out \(name).pem
            """)
    }

    @Test func aResponderTheIssuerAuthorizedMayAnswer() throws {
        try responder("ocsp-responder", withPurpose: true)
        let delegated = try trust()
        #expect(SecTrustSetOCSPResponse(delegated, try response("R", signer: "ocsp-responder") as CFData) == 0)
        #expect(!SecTrustEvaluateWithError(delegated, nil))
        // Without the OCSP-signing purpose the issuer's certificate does not make it a responder.
        try responder("tls-server", withPurpose: false)
        let unauthorized = try trust()
        #expect(SecTrustSetOCSPResponse(unauthorized, try response("R", signer: "tls-server") as CFData) == 0)
        #expect(SecTrustEvaluateWithError(unauthorized, nil))
    }

    @Test func onlyDataIsAResponse() throws {
        let subject = try trust()
        #expect(SecTrustSetOCSPResponse(subject, "not a response" as CFString) == errSecParam)
        #expect(SecTrustSetOCSPResponse(subject, ["not data"] as CFArray) == errSecParam)
        #expect(SecTrustSetOCSPResponse(subject, nil) == errSecSuccess)
    }
}
