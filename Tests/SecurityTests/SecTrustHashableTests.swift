import Foundation
import Security
import Testing

/// Apple's SecTrust is Hashable, as every CF type is in Swift, with CFEqual's meaning for it: SecTrust registers
/// no equality of its own (`CFGiblisFor(SecTrust)` in SecTrust.c), so two trusts are equal only when they are the
/// same object.
@Suite struct SecTrustHashableTests {
    private struct Evaluation: Hashable {
        let trust: SecTrust
        let host: String
    }

    private func makeTrust() throws -> SecTrust {
        let leaf = try CertificateFixtures.shared().certificate("leaf")
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(leaf, SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
        return try #require(trust)
    }

    @Test func equalOnlyToItself() throws {
        let first = try makeTrust()
        let second = try makeTrust()
        #expect(first == first)
        #expect(first != second)  // the same certificate and policy, two objects
        let set: Set<SecTrust> = [first, second, first]
        #expect(set.count == 2)
        #expect(Evaluation(trust: first, host: "a") == Evaluation(trust: first, host: "a"))
        #expect(Evaluation(trust: first, host: "a").hashValue == Evaluation(trust: first, host: "a").hashValue)
        #expect(Evaluation(trust: first, host: "a") != Evaluation(trust: second, host: "a"))
        // Changing its settings keeps it the same object, found where it was put.
        #expect(SecTrustSetVerifyDate(first, Date(timeIntervalSince1970: 1_700_000_000) as CFDate) == errSecSuccess)
        #expect(set.contains(first))
    }
}
