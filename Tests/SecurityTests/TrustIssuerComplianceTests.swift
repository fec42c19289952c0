import Foundation
import Security
import Testing

/// What Apple reports of an issuing certificate that may not issue: without basicConstraints, with cA false,
/// with a keyUsage that lacks keyCertSign, or whose name constraints the certificate below breaks.
@Suite struct TrustIssuerComplianceTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    private func evaluate(_ names: [String]) throws -> (error: NSError?, detail: String?) {
        let evaluation = try fixtures.evaluate(names, policy: SecPolicyCreateBasicX509())
        #expect(!evaluation.trusted)
        return (evaluation.error, evaluation.detail)
    }

    @Test func anIssuerWithCAFalseFailsWithErrSecNoBasicConstraintsCA() throws {
        let (error, detail) = try evaluate(["under", "notca"])
        #expect(error?.code == Int(errSecNoBasicConstraintsCA))
        #expect(error?.localizedDescription == "“Not A CA” certificate is not standards compliant")
        #expect(detail == "Certificate 1 “Not A CA” has errors: Non-CA certificate used as a CA;")
    }

    @Test func anIssuerWithoutBasicConstraintsFailsWithErrSecNoBasicConstraints() throws {
        let (error, detail) = try evaluate(["undernobcca", "nobcca"])
        #expect(error?.code == Int(errSecNoBasicConstraints))
        #expect(error?.localizedDescription == "“nobcca” certificate is not standards compliant")
        #expect(detail == "Certificate 1 “nobcca” has errors: Basic constraints are required but missing;")
    }

    @Test func anIssuerWithoutKeyCertSignFailsWithErrSecInvalidKeyUsageForPolicy() throws {
        let (error, detail) = try evaluate(["undernokuca", "nokuca"])
        #expect(error?.code == Int(errSecInvalidKeyUsageForPolicy))
        #expect(error?.localizedDescription == "“nokuca” certificate is not permitted for this usage")
        #expect(detail == "Certificate 1 “nokuca” has errors: Key usage does not match certificate usage;")
    }

    @Test func aBrokenNameConstraintFailsWithErrSecInvalidName() throws {
        let (error, detail) = try evaluate(["undernameca", "nameca"])
        #expect(error?.code == Int(errSecInvalidName))
        #expect(error?.localizedDescription == "“undernameca.example.test” certificate is not standards compliant")
        #expect(detail == "Certificate 0 “undernameca.example.test” has errors: Name constraints violated;")
    }
}
