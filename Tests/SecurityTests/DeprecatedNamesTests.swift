import Foundation
import LocalAuthentication
import Security
import Testing

/// Names Apple deprecated but still declares, which older iOS code uses.
@Suite struct DeprecatedNamesTests {
    @available(*, deprecated)
    @Test func serialNumberOfIOS10() throws {
        let certificate = try CertificateFixtures.shared().certificate("leaf")
        let serial = try #require(SecCertificateCopySerialNumber(certificate))
        #expect(serial as Data == SecCertificateCopySerialNumberData(certificate, nil) as Data?)
        #expect(CFDataGetLength(serial) > 0)
    }

    @available(*, deprecated)
    @Test func biometryNoneOfIOS11() {
        #expect(LABiometryType.LABiometryNone == .none)
        let type: LABiometryType = .LABiometryNone
        #expect(type.rawValue == 0)
    }

    @available(*, deprecated)
    @Test func certificateTransparencyWhiteListKey() throws {
        #expect(kSecTrustCertificateTransparencyWhiteList as String == "TrustCertificateTransparencyWhiteList")
        // iOS 11 and later never put it in a result, and neither does this keychain.
        var trust: SecTrust?
        let leaf = try CertificateFixtures.shared().certificate("leaf")
        #expect(SecTrustCreateWithCertificates(leaf, SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
        let evaluated = try #require(trust)
        let result = try #require(SecTrustCopyResult(evaluated) as? [String: Any])
        #expect(result[kSecTrustCertificateTransparencyWhiteList as String] == nil)
    }
}
