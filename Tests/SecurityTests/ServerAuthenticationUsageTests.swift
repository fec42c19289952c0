import Foundation
import Testing
import X509Certificates

@testable import Security

/// The rule for chains anchored by one of the system's roots, which a test cannot make (it would have to add a root
/// to /etc/ssl/certs): the leaf must name serverAuth whatever its date, and an intermediate with an
/// extendedKeyUsage must allow serverAuth or any purpose.
@Suite struct ServerAuthenticationUsageTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    private func failures(_ names: [String], anchoredBySystem: Bool) throws -> [SecTrustFailure] {
        let chain = try names.map { try fixtures.certificate($0).x509 }
        return TrustEvaluation.serverAuthenticationFailures(
            of: chain, anchoredBySystem: anchoredBySystem, under: [SecPolicyCreateSSL(true, nil)])
    }

    @Test func underASystemRootTheLeafNeedsServerAuthWhateverItsDate() throws {
        #expect(try failures(["leaf", "intermediate", "root"], anchoredBySystem: true).isEmpty)
        for name in ["old", "noeku", "anyeku", "client"] {
            #expect(
                try failures([name, "intermediate", "root"], anchoredBySystem: true)
                    == [SecTrustFailure(index: 0, check: .serverAuthenticationUsage)], "\(name)")
        }
        #expect(try failures(["old", "intermediate", "root"], anchoredBySystem: false).isEmpty)
    }

    @Test func underASystemRootAnIntermediatesUsageMustAllowServers() throws {
        #expect(
            try failures(["leaf", "mailca", "root"], anchoredBySystem: true)
                == [SecTrustFailure(index: 0, check: .serverAuthenticationUsage)])
        #expect(try failures(["leaf", "mailca", "root"], anchoredBySystem: false).isEmpty)
        // The anchor's own usage is not looked at.
        #expect(try failures(["leaf", "mailca"], anchoredBySystem: true).isEmpty)
    }

    @Test func onlyTheServerPolicyAsks() throws {
        let chain = try ["noeku", "intermediate"].map { try fixtures.certificate($0).x509 }
        for policy in [SecPolicyCreateSSL(false, nil), SecPolicyCreateBasicX509()] {
            #expect(
                TrustEvaluation.serverAuthenticationFailures(of: chain, anchoredBySystem: true, under: [policy])
                    .isEmpty)
        }
    }

    /// End to end: a system root evaluated as a server certificate is anchored by the system, so it needs
    /// serverAuth whatever its date; so it is when the app sets that same root as its own anchor, as Apple asks
    /// the system's store whatever anchors the app set.
    @Test(.enabled(if: TrustTests.systemRoot() != nil, "needs a CA certificate in /etc/ssl/certs valid today"))
    func aChainEndingInASystemRootIsAnchoredBySystem() throws {
        let root = try #require(TrustTests.systemRoot())
        #expect(ChainVerifier.isSystemAnchor(root.x509))
        #expect(!ChainVerifier.isSystemAnchor(try fixtures.certificate("root").x509))
        let namesServer = root.x509.extensions.extendedKeyUsage?.serverAuthentication == true
        let missing = SecTrustFailure(index: 0, check: .serverAuthenticationUsage)
        var settings = SecTrust.Settings(certificates: [root], policies: [SecPolicyCreateSSL(true, nil)])
        #expect(TrustEvaluation(settings: settings).failures.contains(missing) == !namesServer)
        settings.customAnchors = [root]
        settings.customAnchorsOnly = true
        #expect(TrustEvaluation(settings: settings).failures.contains(missing) == !namesServer)
    }
}
