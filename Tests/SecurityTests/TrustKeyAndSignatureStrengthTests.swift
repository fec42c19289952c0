import Foundation
import Security
import Testing

/// Apple's key size and signature hash rules: every policy refuses a broken key (RSA under 1,024 bits) and an
/// MD2, MD4 or MD5 signature on a certificate that is not self-signed, as fatal failures; the SSL server policy
/// also asks RSA keys of 2,048 bits, EC keys of 256, and no SHA-1 signature, as recoverable ones.
@Suite struct TrustKeyAndSignatureStrengthTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    private func evaluate(_ names: [String], policy: SecPolicy, anchors: [String]) throws
        -> CertificateFixtures.Evaluation
    {
        try fixtures.evaluate(names, policy: policy, anchors: anchors)
    }

    private static let basic = SecPolicyCreateBasicX509()
    private static let server = SecPolicyCreateSSL(true, "www.example.test" as CFString)
    private static let client = SecPolicyCreateSSL(false, nil)

    @Test func anMD5SignatureIsBrokenUnderEveryPolicy() throws {
        for policy in [Self.basic, Self.client, Self.server] {
            let outcome = try evaluate(["md5"], policy: policy, anchors: ["rsaroot"])
            #expect(!outcome.trusted)
            #expect(outcome.error?.code == Int(errSecInvalidDigestAlgorithm))
            #expect(outcome.result == .fatalTrustFailure)
            #expect(
                outcome.error?.localizedDescription
                    == "“md5.example.test” certificate is using a broken signature algorithm")
            #expect(outcome.detail?.contains("Certificate is using a broken signature algorithm") == true)
        }
    }

    /// A self-signed certificate's own signature is not looked at.
    @Test func aSelfSignedMD5AnchorIsTrusted() throws {
        #expect(try evaluate(["md5root"], policy: Self.basic, anchors: ["md5root"]).trusted)
    }

    @Test func anRSA512KeyIsBrokenUnderEveryPolicy() throws {
        for policy in [Self.basic, Self.client, Self.server] {
            let outcome = try evaluate(["rsa512"], policy: policy, anchors: ["root"])
            #expect(!outcome.trusted)
            #expect(outcome.error?.code == Int(errSecUnsupportedKeySize))
            #expect(outcome.result == .fatalTrustFailure)
            #expect(
                outcome.error?.localizedDescription == "“rsa512.example.test” certificate is using a broken key size")
            #expect(outcome.detail?.contains("Certificate is using a broken key size") == true)
        }
    }

    @Test func aServerNeedsRSA2048OrEC256() throws {
        for name in ["rsa1024", "p224"] {
            let outcome = try evaluate([name], policy: Self.server, anchors: ["root"])
            #expect(!outcome.trusted, "\(name)")
            #expect(outcome.error?.code == Int(errSecUnsupportedKeySize), "\(name)")
            #expect(outcome.result == .recoverableTrustFailure, "\(name)")
            #expect(
                outcome.error?.localizedDescription == "“\(name).example.test” certificate is using a broken key size",
                "\(name)")
            #expect(
                outcome.detail
                    == "Certificate 0 “\(name).example.test” has errors: Key size is not permitted for this use;",
                "\(name)")
            #expect(try evaluate([name], policy: Self.basic, anchors: ["root"]).trusted, "\(name)")
        }
    }

    @Test func aServerNeedsMoreThanSHA1() throws {
        let outcome = try evaluate(["sha1"], policy: Self.server, anchors: ["rsaroot"])
        #expect(!outcome.trusted)
        #expect(outcome.error?.code == Int(errSecInvalidDigestAlgorithm))
        #expect(outcome.result == .recoverableTrustFailure)
        #expect(
            outcome.error?.localizedDescription
                == "“sha1.example.test” certificate is using a broken signature algorithm")
        #expect(
            outcome.detail
                == "Certificate 0 “sha1.example.test” has errors: Signature hash algorithm is not permitted for this use;"
        )
        #expect(try evaluate(["sha1"], policy: Self.basic, anchors: ["rsaroot"]).trusted)
    }
}
