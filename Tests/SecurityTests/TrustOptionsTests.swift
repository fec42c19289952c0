import Dispatch
import Foundation
import Security
import Testing

/// The rest of SecTrust.h that code calls around an evaluation: the network-fetch permission, the verify time,
/// the result dictionary and the older asynchronous evaluation.
@Suite struct TrustOptionsTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    private func trust(_ names: [String], policy: SecPolicy) throws -> SecTrust {
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(try names.map(fixtures.certificate) as CFArray, policy, &trust) == 0)
        let created = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(created, [try fixtures.certificate("root")] as CFArray) == 0)
        return created
    }

    @Test func networkFetchIsAllowedForSSLAndCanBeTurnedOff() throws {
        let ssl = try trust(["leaf", "intermediate"], policy: SecPolicyCreateSSL(true, "www.example.test" as CFString))
        var allowed: DarwinBoolean = false
        #expect(SecTrustGetNetworkFetchAllowed(ssl, &allowed) == errSecSuccess)
        #expect(allowed.boolValue)
        #expect(SecTrustSetNetworkFetchAllowed(ssl, false) == errSecSuccess)
        #expect(SecTrustGetNetworkFetchAllowed(ssl, &allowed) == errSecSuccess)
        #expect(!allowed.boolValue)
        let basic = try trust(["leaf", "intermediate"], policy: SecPolicyCreateBasicX509())
        #expect(SecTrustGetNetworkFetchAllowed(basic, &allowed) == errSecSuccess)
        #expect(!allowed.boolValue, "Apple allows it by default for SSL policies only")
    }

    @Test func theVerifyTimeIsTheDateSetOrNow() throws {
        let subject = try trust(["leaf", "intermediate"], policy: SecPolicyCreateBasicX509())
        let before = Date().timeIntervalSinceReferenceDate
        #expect(abs(SecTrustGetVerifyTime(subject) - before) < 5)
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000)
        #expect(SecTrustSetVerifyDate(subject, date as CFDate) == errSecSuccess)
        #expect(SecTrustGetVerifyTime(subject) == 700_000_000)
    }

    @Test func theResultDictionaryHasTheResultAndTheDate() throws {
        let good = try trust(
            ["leaf", "intermediate"], policy: SecPolicyCreateSSL(true, "www.example.test" as CFString))
        let result = try #require(SecTrustCopyResult(good) as? [String: Any])
        #expect(
            (result[kSecTrustResultValue as String] as? NSNumber)?.uint32Value
                == SecTrustResultType.unspecified.rawValue)
        #expect(result[kSecTrustEvaluationDate as String] is Date)
        // Nothing checked extended validation, revocation (no stapled response) or certificate transparency: the
        // keys that would say so are absent, as on Apple platforms for a trust that did not check them.
        for unchecked in [
            kSecTrustExtendedValidation, kSecTrustOrganizationName, kSecTrustRevocationChecked,
            kSecTrustRevocationValidUntilDate, kSecTrustCertificateTransparency,
        ] {
            #expect(result[unchecked as String] == nil)
        }
        #expect(kSecTrustRevocationValidUntilDate as String == "TrustExpirationDate")
        let bad = try trust(
            ["leaf", "intermediate"], policy: SecPolicyCreateSSL(true, "other.example.test" as CFString))
        let failed = try #require(SecTrustCopyResult(bad) as? [String: Any])
        #expect(
            (failed[kSecTrustResultValue as String] as? NSNumber)?.uint32Value
                == SecTrustResultType.recoverableTrustFailure.rawValue)
    }

    /// SCTs feed certificate transparency checks, which do not exist here: refused, never accepted unread.
    @Test func signedCertificateTimestampsAreUnimplemented() throws {
        let subject = try trust(["leaf", "intermediate"], policy: SecPolicyCreateBasicX509())
        #expect(SecTrustSetSignedCertificateTimestamps(subject, [Data([1])] as CFArray) == errSecUnimplemented)
        #expect(SecTrustSetSignedCertificateTimestamps(subject, nil) == errSecSuccess)
    }

    @Test func theOlderAsynchronousEvaluationCallsBackWithTheResult() throws {
        let subject = try trust(["leaf", "intermediate"], policy: SecPolicyCreateBasicX509())
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var seen: SecTrustResultType = .invalid
        let queue = DispatchQueue(label: "trust-result")
        #expect(
            SecTrustEvaluateAsync(subject, queue) { _, result in
                seen = result
                done.signal()
            } == errSecSuccess)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen == .unspecified)
    }
}
