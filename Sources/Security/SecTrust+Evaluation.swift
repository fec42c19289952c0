import Foundation
import KeychainCore
import X509Certificates

/// A failed check on one certificate of the chain.
struct SecTrustFailure: Equatable {
    /// The position in the chain, 0 for the leaf.
    let index: Int
    let check: SecTrustCheck
}

/// The outcome of one evaluation: the chain and the failures, and the error Apple's shape gives them.
struct TrustEvaluation {
    let chain: [SecCertificate]
    /// The failures that count: those the user accepted through exceptions left out.
    let failures: [SecTrustFailure]
    /// Whether the chain is trusted only because the user accepted its failures (`.proceed`).
    let passedByExceptions: Bool
    /// The date the certificates' validity was checked at.
    let date: Date
    /// What a stapled OCSP response said of the leaf, when one was used.
    let revocation: OCSPAnswer?

    init(settings: SecTrust.Settings) {
        let leaf = settings.certificates[0]
        let anchors = settings.customAnchors ?? []
        date = settings.verifyDate ?? Date()
        var request = ChainVerificationRequest(
            leaf: leaf.x509, intermediates: settings.certificates.dropFirst().map(\.x509),
            anchors: anchors.map(\.x509), date: date)
        // Anchors only, with none set, trusts nothing: Apple then adds no system anchors either.
        request.trustsSystemAnchors = !settings.customAnchorsOnly
        request.hostname = settings.policies.lazy.compactMap(\.hostname).first
        let known = settings.certificates + anchors
        var found: [SecTrustFailure]
        do {
            let result = try ChainVerifier.verify(request)
            chain = result.chain.map { built in known.first { $0.x509 == built } ?? SecCertificate(x509: built) }
            // As Apple's check: the root is in the system's store, whatever anchors the app set.
            let anchoredBySystem =
                result.isAnchored
                && result.chain.last.map {
                    ChainVerifier.isSystemAnchor($0, directory: request.systemAnchorDirectory)
                } == true
            found =
                result.problems.map { problem in
                    let certificate = result.chain.indices.contains(problem.index) ? result.chain[problem.index] : nil
                    return SecTrustFailure(index: problem.index, check: problem.check(of: certificate))
                }
                + Self.otherHostFailures(of: leaf, under: settings.policies, checked: request.hostname)
                + Self.policyFailures(of: result.chain, under: settings.policies)
                + Self.strengthFailures(of: result.chain, under: settings.policies)
                + Self.serverAuthenticationFailures(
                    of: result.chain, anchoredBySystem: anchoredBySystem, under: settings.policies)
        } catch {
            chain = [leaf]
            found = [SecTrustFailure(index: 0, check: .other("the chain could not be verified: \(error)"))]
        }
        // One failure once: OpenSSL reports an issuer that may not issue twice when its keyUsage lacks keyCertSign,
        // and two SSL policies of one role find the same extendedKeyUsage failures.
        found = found.reduce(into: []) { unique, failure in
            if !unique.contains(failure) { unique.append(failure) }
        }
        let chain = chain
        revocation = Self.stapledAnswer(for: chain, responses: settings.ocspResponses, at: date)
        if revocation?.isRevoked == true { found.append(SecTrustFailure(index: 0, check: .revoked)) }
        failures =
            settings.exceptions.map { exceptions in
                found.filter { $0.check.isFatal || !exceptions.excuses($0, on: chain) }
            } ?? found
        passedByExceptions = failures.isEmpty && !found.isEmpty
    }

    /// What the stapled responses say of the leaf, read against its issuer in the built chain.
    private static func stapledAnswer(for chain: [SecCertificate], responses: [[UInt8]], at date: Date)
        -> OCSPAnswer?
    {
        guard !responses.isEmpty, chain.count >= 2, let anchor = chain.last else { return nil }
        return OCSPStaple.answer(
            for: chain[0].x509, issuer: chain[1].x509, anchor: anchor.x509, responses: responses, at: date)
    }

    /// Each SSL policy is a check of its own, as on Apple's: OpenSSL checks the first policy's host name, and the
    /// leaf must name every other policy's too.
    private static func otherHostFailures(
        of leaf: SecCertificate, under policies: [SecPolicy], checked: String?
    ) -> [SecTrustFailure] {
        let others = policies.compactMap(\.hostname).filter { $0 != checked }
        guard others.contains(where: { !ChainVerifier.names($0, in: leaf.x509) }) else { return [] }
        return [SecTrustFailure(index: 0, check: .sslHostname)]
    }

    /// The TLS rules OpenSSL is not asked to check, as Apple's SSL policies apply them whatever the anchor: the
    /// leaf's extendedKeyUsage, when present, must allow the role (or any purpose), and so must that of every CA
    /// between the leaf and the anchor when it names any purpose at all (the anchor's own is not looked at). No
    /// keyUsage is asked of the leaf: Apple's SecPolicyCreateSSL passes none to its policy.
    private static func policyFailures(of chain: [X509Certificate], under policies: [SecPolicy]) -> [SecTrustFailure] {
        var failures: [SecTrustFailure] = []
        for policy in policies {
            guard case .ssl(let server, _) = policy.rule else { continue }
            for (index, certificate) in chain.enumerated() where index == 0 || index < chain.count - 1 {
                guard let usage = certificate.extensions.extendedKeyUsage, index == 0 || !usage.isEmpty else {
                    continue
                }
                if !usage.allowsTLS(server: server) {
                    failures.append(SecTrustFailure(index: index, check: .extendedKeyUsage))
                }
            }
        }
        return failures
    }

    /// Apple's rules on keys and signature hashes, for every certificate of the chain, the anchor too: under every
    /// policy a broken key (RSA under 1,024 bits, EC under 160, an algorithm other than RSA, EC or Edwards) and an
    /// MD2, MD4 or MD5 signature on a certificate that is not self-signed are fatal (its WeakKeySize and
    /// WeakSignature checks); the SSL server policy also asks RSA keys of 2,048 bits and EC keys of 256, and no
    /// SHA-1 signature either (its KeySize and SignatureHashAlgorithms checks, which spare only anchors of the
    /// user's trust settings, which this implementation has none of).
    static func strengthFailures(of chain: [X509Certificate], under policies: [SecPolicy]) -> [SecTrustFailure] {
        let server = policies.contains(where: \.isSSLServer)
        var failures: [SecTrustFailure] = []
        for (index, certificate) in chain.enumerated() {
            let algorithm = certificate.publicKeyAlgorithm
            // Apple compares whole bytes: a 2,047-bit modulus is 256 bytes, as one of 2,048.
            let bytes = (certificate.publicKeyBits + 7) / 8
            let weakKey: Bool
            let strongKey: Bool
            switch algorithm {
            case .rsa: (weakKey, strongKey) = (bytes < 128, bytes >= 256)
            case .ec: (weakKey, strongKey) = (bytes < 20, bytes >= 32)
            case .edwards: (weakKey, strongKey) = (false, false)
            case .other: (weakKey, strongKey) = (true, false)
            }
            if weakKey { failures.append(SecTrustFailure(index: index, check: .weakKeySize)) }
            if server && !strongKey { failures.append(SecTrustFailure(index: index, check: .keySize)) }
            let digest = certificate.signatureDigest
            let broken = digest == .md2 || digest == .md4 || digest == .md5
            guard broken || (server && digest == .sha1), !certificate.isSelfSigned else { continue }
            if broken { failures.append(SecTrustFailure(index: index, check: .weakSignature)) }
            if server { failures.append(SecTrustFailure(index: index, check: .signatureHashAlgorithms)) }
        }
        return failures
    }

    /// Apple's stricter rule for TLS servers (its SSL server policy's ServerAuthEKU check, and [Requirements for
    /// trusted certificates in iOS 13](https://support.apple.com/en-us/103769)): a chain anchored by a system root
    /// needs a leaf whose extendedKeyUsage names serverAuth (an absent extension or anyExtendedKeyUsage is not
    /// enough), and every intermediate with an extendedKeyUsage must allow serverAuth or any purpose; under any
    /// other anchor the leaf needs serverAuth when it was issued after 1 July 2019. The failure is the leaf's.
    static func serverAuthenticationFailures(
        of chain: [X509Certificate], anchoredBySystem: Bool, under policies: [SecPolicy]
    ) -> [SecTrustFailure] {
        guard policies.contains(where: \.isSSLServer), let leaf = chain.first else { return [] }
        let leafNamesServer = leaf.extensions.extendedKeyUsage?.serverAuthentication == true
        let compliant: Bool
        if anchoredBySystem {
            let intermediates = chain.dropFirst().dropLast()
            compliant =
                leafNamesServer
                && intermediates.allSatisfy { certificate in
                    guard let usage = certificate.extensions.extendedKeyUsage, !usage.isEmpty else { return true }
                    return usage.serverAuthentication || usage.any
                }
        } else {
            compliant = leafNamesServer || leaf.notBefore <= serverAuthenticationRequiredSince
        }
        return compliant ? [] : [SecTrustFailure(index: 0, check: .serverAuthenticationUsage)]
    }

    /// The date after which Apple requires serverAuth of every TLS server certificate, as its trust evaluation
    /// reckons it (583,628,400 seconds after 2001-01-01: 2019-06-30 23:00 UTC).
    static let serverAuthenticationRequiredSince = Date(timeIntervalSinceReferenceDate: 583_628_400)

    /// Apple's error: the most important kind of failure (the one nearest the leaf among equals) names the code
    /// and the short description; the underlying error lists each certificate's failures.
    var error: NSError? {
        guard
            let decisive = failures.min(by: { lhs, rhs in
                lhs.check.kind != rhs.check.kind ? lhs.check.kind < rhs.check.kind : lhs.index < rhs.index
            })
        else { return nil }
        let status = decisive.check.status
        let summary = chain.indices.contains(decisive.index) ? chain[decisive.index].subjectSummary : nil
        let short = summary.map { decisive.check.kind.sentence(about: $0) } ?? SecurityStatus.message(for: status)
        let underlying = NSError(
            domain: "NSOSStatusErrorDomain", code: Int(status), userInfo: [NSLocalizedDescriptionKey: details])
        return NSError(
            domain: "NSOSStatusErrorDomain", code: Int(status),
            userInfo: [NSLocalizedDescriptionKey: short, NSUnderlyingErrorKey: underlying])
    }

    /// "Certificate 0 “name” has errors: …;" for each certificate that has any.
    private var details: String {
        let indices = Set(failures.map(\.index)).sorted()
        return indices.map { index in
            let summary = chain.indices.contains(index) ? chain[index].subjectSummary ?? "" : ""
            let texts = failures.filter { $0.index == index }.map(\.check.text).reduce(into: [String]()) {
                if !$0.contains($1) { $0.append($1) }
            }
            return "Certificate \(index) “\(summary)” has errors: \(texts.joined(separator: ", "));"
        }.joined()
    }
}

extension SecPolicy {
    /// The host name an SSL policy checks, a client's as a server's (Apple checks both).
    var hostname: String? {
        if case .ssl(_, let hostname) = rule { return hostname }
        return nil
    }

    var isSSLServer: Bool {
        if case .ssl(true, _) = rule { return true }
        return false
    }
}

extension ChainVerificationResult {
    /// Whether the chain ends in a trusted anchor: no certificate was left without an issuer or ended in an
    /// untrusted root.
    var isAnchored: Bool {
        !problems.contains { $0.kind == .untrustedRoot || $0.kind == .missingIssuer }
    }
}

extension ChainProblem {
    /// Apple's check for the problem, `certificate` the one it was found on: OpenSSL's one error for an issuer that
    /// may not issue is told apart as Apple's checks tell it (no basicConstraints, cA false, or, with cA true, a
    /// keyUsage without keyCertSign).
    func check(of certificate: X509Certificate?) -> SecTrustCheck {
        guard kind == .notCertificateAuthority, let extensions = certificate?.extensions else { return check }
        if !extensions.hasBasicConstraints { return .basicConstraints }
        if !extensions.isCertificateAuthority { return .basicConstraintsCA }
        if let usage = extensions.keyUsage, usage & CertificateExtensions.keyCertificateSigning == 0 {
            return .keyUsage
        }
        return check
    }

    var check: SecTrustCheck {
        switch kind {
        case .expired, .notYetValid: .temporalValidity
        case .hostnameMismatch: .sslHostname
        case .untrustedRoot: .anchorTrusted
        case .missingIssuer: .missingIntermediate
        case .notCertificateAuthority: .basicConstraints
        case .keyUsageWithoutCertificateSigning: .keyUsage
        case .nameConstraintsViolated: .nameConstraints
        case .pathLengthExceeded: .basicConstraintsPathLength
        case .unhandledCriticalExtension: .criticalExtensions
        case .badSignature: .signature
        case .other: .other(detail)
        }
    }
}
