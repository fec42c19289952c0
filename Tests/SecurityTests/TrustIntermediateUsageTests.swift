import Foundation
import Security
import Testing

/// Apple's SSL policies check the extendedKeyUsage of every CA between the leaf and the anchor, whatever the anchor:
/// a CA whose extension names neither any purpose nor the policy's role cannot issue for that role.
@Suite struct TrustIntermediateUsageTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    private func evaluate(_ names: [String], policy: SecPolicy, anchors: [String] = ["root"]) throws -> (
        trusted: Bool, error: NSError?
    ) {
        let evaluation = try fixtures.evaluate(names, policy: policy, anchors: anchors)
        return (evaluation.trusted, evaluation.error)
    }

    private let server = SecPolicyCreateSSL(true, "www.example.test" as CFString)
    private let client = SecPolicyCreateSSL(false, nil)

    @Test func anEmailOnlyCACannotIssueAServerUnderAnAppsAnchor() throws {
        let (trusted, error) = try evaluate(["mailleaf", "mailca"], policy: server)
        #expect(!trusted)
        #expect(error?.code == Int(errSecInvalidExtendedKeyUsage))
        #expect(error?.localizedDescription == "“Mail Only CA” certificate is not permitted for this usage")
        let underlying = error?.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(
            underlying?.localizedDescription
                == "Certificate 1 “Mail Only CA” has errors: Extended key usage does not match certificate usage;")
        #expect(
            try evaluate(["mailclient", "mailca"], policy: client).error?.code == Int(errSecInvalidExtendedKeyUsage))
    }

    @Test func aCAForOneRoleCannotIssueForTheOther() throws {
        #expect(
            try evaluate(["underclientca", "clientca"], policy: server).error?.code
                == Int(errSecInvalidExtendedKeyUsage))
        #expect(
            try evaluate(["underserverca", "serverca"], policy: client).error?.code
                == Int(errSecInvalidExtendedKeyUsage))
        #expect(try evaluate(["clientunderclientca", "clientca"], policy: client).trusted)
    }

    /// Apple's server policy accepts the legacy Server Gated Cryptography purposes on a CA.
    @Test func aServerGatedCryptographyCAMayIssueAServer() throws {
        #expect(try evaluate(["undersgcca", "sgcca"], policy: server).trusted)
    }

    /// The anchor's own usage is not looked at, nor does the basic policy look at any.
    @Test func theAnchorAndTheBasicPolicyAreNotAsked() throws {
        #expect(try evaluate(["mailleaf"], policy: server, anchors: ["mailca"]).trusted)
        #expect(try evaluate(["mailleaf", "mailca"], policy: SecPolicyCreateBasicX509()).trusted)
        #expect(try evaluate(["leaf", "intermediate"], policy: server).trusted)
    }
}
