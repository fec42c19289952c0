import Foundation
import KeychainCore
import X509Certificates

/// Whether one certificate passes the certificate search keys, as Apple's keychain decides it (`SecItemServer.c`
/// for the issuers, e-mail address, date, policy and trust; the macOS keychain's `SecItem.cpp` for the subject
/// strings, which the iOS keychain takes without applying).
extension CertificateMatch {
    /// What the tests need from the keychain besides the certificate: its other certificates.
    struct KeychainCertificates {
        /// The issuers' names of the keychain's certificates, by subject (normalized contents), for
        /// `kSecMatchIssuers`.
        let issuersBySubject: () throws -> [[UInt8]: [[UInt8]]]
        /// The keychain's certificates, as the intermediates of a chain to a trusted anchor.
        let all: () throws -> [SecCertificate]
    }

    /// Whether `certificate` passes every key given. - Parameter caseInsensitive: `kSecMatchCaseInsensitive`.
    func admits(_ certificate: SecCertificate, caseInsensitive: Bool, keychain: KeychainCertificates) throws -> Bool {
        let x509 = certificate.x509
        if !subjectTests.isEmpty, !passesSubjectTests(x509.commonNames.last, caseInsensitive: caseInsensitive) {
            return false
        }
        if let emailAddress,
            !x509.emailAddresses.contains(where: { $0.caseInsensitiveCompare(emailAddress) == .orderedSame })
        {
            return false
        }
        if let validOnDate, !Self.isValid(x509, on: validOnDate) { return false }
        if let issuers, try !Self.isIssued(x509, byOneOf: issuers, keychain: keychain) { return false }
        if let policy, try !Self.satisfies(certificate, policy, date: validOnDate, keychain: keychain) {
            return false
        }
        if trustedOnly, try !Self.satisfies(certificate, SecPolicyCreateBasicX509(), date: nil, keychain: keychain) {
            return false
        }
        return true
    }

    /// The subject strings are compared with the subject's common name (the last, as
    /// `SecCertificateCopyCommonName` gives it); a certificate without one passes none.
    private func passesSubjectTests(_ commonName: String?, caseInsensitive: Bool) -> Bool {
        guard let commonName else { return false }
        let options: String.CompareOptions = caseInsensitive ? [.caseInsensitive] : []
        return subjectTests.allSatisfy { test in
            switch test {
            case .contains(let text): commonName.range(of: text, options: options) != nil
            case .startsWith(let text): commonName.range(of: text, options: options.union(.anchored)) != nil
            case .endsWith(let text):
                commonName.range(of: text, options: options.union([.anchored, .backwards])) != nil
            case .wholeString(let text): commonName.compare(text, options: options) == .orderedSame
            }
        }
    }

    /// Apple's date test: within the validity period, and a certificate whose period is empty is never valid.
    private static func isValid(_ certificate: X509Certificate, on date: Date) -> Bool {
        certificate.notBefore != certificate.notAfter && certificate.notBefore <= date && date <= certificate.notAfter
    }

    /// Whether the certificate's issuer is one of `issuers`, or, as Apple's keychain looks, the issuer of a
    /// certificate of the keychain with that subject is, and so on up to ten certificates up.
    private static func isIssued(
        _ certificate: X509Certificate, byOneOf issuers: Set<[UInt8]>, keychain: KeychainCertificates
    ) throws -> Bool {
        guard let issuer = certificate.issuer.normalizedContent else { return false }
        if issuers.contains(issuer) { return true }
        let bySubject = try keychain.issuersBySubject()
        var seen: Set<[UInt8]> = [issuer]
        var level = [issuer]
        for _ in 0..<10 where !level.isEmpty {
            var next: [[UInt8]] = []
            for subject in level {
                for parent in bySubject[subject] ?? [] where !seen.contains(parent) {
                    if issuers.contains(parent) { return true }
                    seen.insert(parent)
                    next.append(parent)
                }
            }
            level = next
        }
        return false
    }

    /// Whether the certificate satisfies the policy at `date` (now when nil). As Apple's keychain does, the basic
    /// X.509 policy evaluates the whole chain (the keychain's certificates may complete it, the system's anchors
    /// end it); any other policy checks the certificate itself: its dates, names and usages.
    private static func satisfies(
        _ certificate: SecCertificate, _ policy: SecPolicy, date: Date?, keychain: KeychainCertificates
    ) throws -> Bool {
        let wholeChain = policy.rule == .basicX509
        let others = wholeChain ? try keychain.all().filter { $0 != certificate } : []
        var settings = SecTrust.Settings(certificates: [certificate] + others, policies: [policy])
        settings.verifyDate = date
        let failures = TrustEvaluation(settings: settings).failures
        if wholeChain { return failures.isEmpty }
        return !failures.contains { $0.index == 0 && $0.check.isAboutTheCertificateItself }
    }
}

extension SecTrustCheck {
    /// Whether the check is about the certificate alone, not its chain or anchor: what a leaf-only evaluation
    /// looks at.
    fileprivate var isAboutTheCertificateItself: Bool {
        switch self {
        // Apple's key size and signature hash checks are leaf-only ones too (SecPolicyChecks.list).
        case .sslHostname, .temporalValidity, .keyUsage, .extendedKeyUsage, .criticalExtensions, .weakKeySize,
            .weakSignature, .keySize, .signatureHashAlgorithms:
            true
        // Apple's serverAuth rule depends on the chain's anchor: a path check, which a leaf-only evaluation skips.
        case .serverAuthenticationUsage, .basicConstraints, .basicConstraintsCA, .nameConstraints,
            .basicConstraintsPathLength, .anchorTrusted,
            .missingIntermediate, .signature, .revoked, .other:
            false
        }
    }
}
