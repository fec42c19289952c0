import Foundation
import Security
import Testing

/// Trust exceptions: `SecTrustCopyExceptions` records what an evaluation found wrong with each certificate, and
/// `SecTrustSetExceptions` makes a later evaluation of the same certificates accept exactly those failures (the
/// "trust this certificate anyway" a user chooses), and nothing else.
@Suite struct TrustExceptionsTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    private func trust(_ names: [String], host: String = "www.example.test") throws -> SecTrust {
        var trust: SecTrust?
        let certificates = try names.map(fixtures.certificate)
        #expect(
            SecTrustCreateWithCertificates(certificates as CFArray, SecPolicyCreateSSL(true, host as CFString), &trust)
                == errSecSuccess)
        let created = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(created, [try fixtures.certificate("root")] as CFArray) == errSecSuccess)
        return created
    }

    private func trusted(_ trust: SecTrust) -> Bool {
        var error: CFError?
        return SecTrustEvaluateWithError(trust, &error)
    }

    @Test func aWrongHostAcceptedOnceIsAcceptedForTheSameCertificateOnly() throws {
        let first = try trust(["leaf", "intermediate"], host: "other.example.test")
        #expect(!trusted(first))
        let exceptions = try #require(SecTrustCopyExceptions(first))
        // Another evaluation of the same certificate and host: the exception applies.
        let again = try trust(["leaf", "intermediate"], host: "other.example.test")
        #expect(SecTrustSetExceptions(again, exceptions))
        #expect(trusted(again))
        var result = SecTrustResultType.invalid
        #expect(SecTrustGetTrustResult(again, &result) == errSecSuccess)
        #expect(result == .proceed, "passed by the user's exception")
        // Another certificate: the exceptions do not apply and are dropped.
        let other = try trust(["wild", "intermediate"], host: "other.example.test")
        #expect(!SecTrustSetExceptions(other, exceptions))
        #expect(!trusted(other))
    }

    @Test func anExceptionCoversOnlyTheFailuresItRecorded() throws {
        let wrongHost = try trust(["leaf", "intermediate"], host: "other.example.test")
        #expect(!trusted(wrongHost))
        let exceptions = try #require(SecTrustCopyExceptions(wrongHost))
        // The same certificate, now also without its intermediate: a failure the exception did not record.
        let incomplete = try trust(["leaf"], host: "other.example.test")
        #expect(SecTrustSetExceptions(incomplete, exceptions))
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(incomplete, &error))
        #expect((error as NSError?)?.code != Int(errSecHostNameMismatch), "the host name was excepted")
    }

    @Test func aTrustedChainHasExceptionsThatChangeNothing() throws {
        let good = try trust(["leaf", "intermediate"])
        #expect(trusted(good))
        let exceptions = try #require(SecTrustCopyExceptions(good))
        let again = try trust(["leaf", "intermediate"])
        #expect(SecTrustSetExceptions(again, exceptions))
        #expect(trusted(again))
        var result = SecTrustResultType.invalid
        #expect(SecTrustGetTrustResult(again, &result) == errSecSuccess)
        #expect(result == .unspecified, "no failure needed the exception")
    }

    @Test func clearingOrMalformedExceptionsLeaveNone() throws {
        let first = try trust(["expired", "intermediate"])
        #expect(!trusted(first))
        let exceptions = try #require(SecTrustCopyExceptions(first))
        let again = try trust(["expired", "intermediate"])
        #expect(SecTrustSetExceptions(again, exceptions))
        #expect(trusted(again))
        #expect(!SecTrustSetExceptions(again, nil))
        #expect(!trusted(again), "exceptions cleared")
        #expect(!SecTrustSetExceptions(again, Data("not a property list".utf8) as CFData))
        #expect(!trusted(again))
        let notAnArray = try PropertyListSerialization.data(
            fromPropertyList: ["SHA256Digest": Data()], format: .binary, options: 0)
        #expect(!SecTrustSetExceptions(again, notAnArray as CFData))
        #expect(!trusted(again))
    }
}
