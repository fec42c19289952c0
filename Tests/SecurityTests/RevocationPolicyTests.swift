import Foundation
import Security
import Testing

/// The revocation names of SecPolicy.h and SecTrust's older key accessor, which cross-platform networking code
/// uses. There is no revocation source here, so no revocation policy is made: code that needs one fails closed.
@Suite struct RevocationPolicyTests {
    @Test func theFlagsHaveApplesValues() {
        #expect(kSecRevocationOCSPMethod == 1)
        #expect(kSecRevocationCRLMethod == 2)
        #expect(kSecRevocationPreferCRL == 4)
        #expect(kSecRevocationRequirePositiveResponse == 8)
        #expect(kSecRevocationNetworkAccessDisabled == 16)
        #expect(kSecRevocationUseAnyAvailableMethod == 3)
        #expect(kSecPolicyAppleRevocation as String == "1.2.840.113635.100.1.21")
    }

    @Test func noRevocationPolicyIsMadeForAnyFlags() {
        for flags: CFOptionFlags in [
            0, kSecRevocationUseAnyAvailableMethod,
            kSecRevocationOCSPMethod | kSecRevocationRequirePositiveResponse,
            kSecRevocationCRLMethod | kSecRevocationNetworkAccessDisabled, 1 << 7,
        ] {
            #expect(SecPolicyCreateRevocation(flags) == nil, "\(flags)")
        }
    }

    @Test func theOlderTrustKeyAccessorGivesTheLeafsKey() throws {
        let fixtures = try CertificateFixtures.shared()
        var trust: SecTrust?
        let chain = [try fixtures.certificate("leaf"), try fixtures.certificate("intermediate")]
        #expect(SecTrustCreateWithCertificates(chain as CFArray, SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
        let created = try #require(trust)
        let key = try #require(SecTrustCopyPublicKey(created))
        #expect(key == SecTrustCopyKey(created))
        #expect(key == SecCertificateCopyKey(try fixtures.certificate("leaf")))
    }
}
