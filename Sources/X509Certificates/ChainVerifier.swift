import Foundation

@_implementationOnly import COpenSSL

/// What to verify: a leaf, the certificates that may complete its chain, and what to trust.
package struct ChainVerificationRequest: Sendable {
    package var leaf: X509Certificate
    package var intermediates: [X509Certificate]
    package var anchors: [X509Certificate]
    /// Whether the system's CA certificates (`systemAnchorDirectory`) are trusted besides `anchors`.
    package var trustsSystemAnchors: Bool
    package var systemAnchorDirectory: String
    package var date: Date
    /// The DNS name or IP address the leaf must name (in its subject alternative names), or nil for none.
    package var hostname: String?

    package init(
        leaf: X509Certificate, intermediates: [X509Certificate] = [], anchors: [X509Certificate] = [],
        trustsSystemAnchors: Bool = true, systemAnchorDirectory: String = ChainVerifier.systemAnchorDirectory,
        date: Date = Date(), hostname: String? = nil
    ) {
        self.leaf = leaf
        self.intermediates = intermediates
        self.anchors = anchors
        self.trustsSystemAnchors = trustsSystemAnchors
        self.systemAnchorDirectory = systemAnchorDirectory
        self.date = date
        self.hostname = hostname
    }
}

/// One thing wrong with one certificate of the chain.
package struct ChainProblem: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case expired, notYetValid, hostnameMismatch
        /// The chain ends in a self-signed certificate that is not an anchor.
        case untrustedRoot
        /// The chain ends in a certificate whose issuer was not found.
        case missingIssuer
        /// A certificate that issued another is not a CA (basicConstraints cA is false or absent, or its keyUsage
        /// does not allow signing certificates).
        case notCertificateAuthority
        /// A certificate that issued another has a keyUsage without keyCertSign.
        case keyUsageWithoutCertificateSigning
        /// A name of the certificate breaks the name constraints of a CA above it.
        case nameConstraintsViolated
        case pathLengthExceeded
        case unhandledCriticalExtension
        case badSignature
        /// Any other verification error, with OpenSSL's code.
        case other(Int32)
    }

    /// The position in the built chain (0 is the leaf).
    package let index: Int
    package let kind: Kind
    /// OpenSSL's text for the error.
    package let detail: String
}

/// The chain OpenSSL built (leaf first) and every problem it found on the way.
package struct ChainVerificationResult: Sendable {
    package let chain: [X509Certificate]
    package let problems: [ChainProblem]
}

/// Builds and checks a chain with OpenSSL's X509_STORE: signatures, validity dates, basic constraints and path
/// length, critical extensions, the host name. It does not stop at the first error: it records each one.
package enum ChainVerifier {
    /// Debian's directory of trusted CA certificates (hashed links, `update-ca-certificates`).
    package static let systemAnchorDirectory = "/etc/ssl/certs"

    /// Verifies `request`.
    /// - Throws: `X509Error.library` when OpenSSL cannot set up the verification.
    package static func verify(_ request: ChainVerificationRequest) throws(X509Error) -> ChainVerificationResult {
        guard let store = X509_STORE_new() else { throw .library("X509_STORE_new") }
        defer { X509_STORE_free(store) }
        if request.trustsSystemAnchors {
            // A missing directory only means no system anchors; the lookup is lazy.
            _ = X509_STORE_load_path(store, request.systemAnchorDirectory)
        }
        for anchor in request.anchors { _ = X509_STORE_add_cert(store, anchor.handle) }
        OpenSSLEncoding.clearErrors()

        guard let untrusted = kossl_x509_stack_new() else { throw .library("sk_X509_new_null") }
        defer { kossl_x509_stack_free(untrusted) }
        for certificate in request.intermediates { _ = kossl_x509_stack_push(untrusted, certificate.handle) }

        guard let context = X509_STORE_CTX_new() else { throw .library("X509_STORE_CTX_new") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, request.leaf.handle, untrusted) == 1 else {
            throw .library("X509_STORE_CTX_init")
        }
        let parameters = X509_STORE_CTX_get0_param(context)
        X509_VERIFY_PARAM_set_time(parameters, request.date.opensslTime)
        // An anchor need not be self-signed (Apple trusts an intermediate or a leaf given as an anchor).
        X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        let collector = ProblemCollector()
        if let hostname = request.hostname, !setHost(hostname, on: parameters) {
            // OpenSSL sets no host for a name it refuses (one with a NUL inside) or an empty one, and would then
            // check none: such a name matches no certificate.
            collector.problems.append(
                ChainProblem(
                    index: 0, kind: .hostnameMismatch,
                    detail: "the host name is empty or holds a character no host name has, so it matches no "
                        + "certificate"))
        }

        let retained = Unmanaged.passRetained(collector)
        defer { retained.release() }
        kossl_store_ctx_set_context(context, retained.toOpaque())
        X509_STORE_CTX_set_verify_cb(context, recordProblem)
        let verified = X509_verify_cert(context)
        if verified != 1 && collector.problems.isEmpty {
            // A failure the callback was not told of (a store lookup, memory): the chain is not verified.
            let code = X509_STORE_CTX_get_error(context)
            collector.problems.append(
                ChainProblem(
                    index: 0, kind: .other(code == X509_V_OK ? X509_V_ERR_UNSPECIFIED : code),
                    detail: "the chain could not be verified"))
        }
        OpenSSLEncoding.clearErrors()

        var chain: [X509Certificate] = []
        if let built = X509_STORE_CTX_get1_chain(context) {
            defer { kossl_x509_stack_free_all(built) }
            for index in 0..<kossl_x509_stack_count(built) {
                guard let certificate = kossl_x509_stack_value(built, index),
                    let der = OpenSSLEncoding.der({ i2d_X509(certificate, $0) }),
                    let parsed = try? X509Certificate(der: der)
                else { continue }
                chain.append(parsed)
            }
        }
        if chain.isEmpty { chain = [request.leaf] }
        return ChainVerificationResult(chain: chain, problems: collector.problems)
    }

    /// Whether `certificate` is one of the system's anchors: in a file of the hashed CA directory named by its
    /// subject's hash (`<hash>.0`, `<hash>.1`, … as `c_rehash` names them). Apple asks this of a chain's root
    /// whatever anchors the app set (its TLS server rules are stricter for system-anchored chains).
    package static func isSystemAnchor(
        _ certificate: X509Certificate, directory: String = ChainVerifier.systemAnchorDirectory
    ) -> Bool {
        defer { OpenSSLEncoding.clearErrors() }
        let hash = String(X509_subject_name_hash(certificate.handle), radix: 16)
        let name = String(repeating: "0", count: max(0, 8 - hash.count)) + hash
        for index in 0..<64 {
            guard let file = BIO_new_file("\(directory)/\(name).\(index)", "r") else { return false }
            defer { BIO_free(file) }
            while let candidate = PEM_read_bio_X509(file, nil, nil, nil) {
                defer { X509_free(candidate) }
                if X509_cmp(candidate, certificate.handle) == 0 { return true }
            }
        }
        return false
    }

    /// Whether `certificate` names `hostname` (a DNS name or an IP address) as the chain's host check does: its
    /// subject alternative names only, a wildcard only as a whole leftmost label, a final dot ignored. A name that
    /// cannot be checked (empty, holding a NUL) matches nothing.
    package static func names(_ hostname: String, in certificate: X509Certificate) -> Bool {
        guard let name = checkable(hostname) else { return false }
        defer { OpenSSLEncoding.clearErrors() }
        let address = X509_check_ip_asc(certificate.handle, name, 0)
        if address >= 0 { return address == 1 }  // -2: not an IP address
        return X509_check_host(certificate.handle, name, name.utf8.count, hostFlags, nil) == 1
    }

    /// `hostname` as OpenSSL checks it (a final dot dropped), or nil for a name it cannot check: empty, or holding
    /// a NUL (OpenSSL would then check nothing).
    private static func checkable(_ hostname: String) -> String? {
        var name = hostname
        if name.hasSuffix(".") { name.removeLast() }
        return name.isEmpty || name.utf8.contains(0) ? nil : name
    }

    /// Apple trusts only the subject alternative names for TLS, never a DNS name in the common name.
    private static let hostFlags = UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT | X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS)

    /// Sets the host name or IP address the leaf must name; false when OpenSSL would check nothing.
    private static func setHost(_ hostname: String, on parameters: OpaquePointer?) -> Bool {
        guard let name = checkable(hostname) else { return false }
        if X509_VERIFY_PARAM_set1_ip_asc(parameters, name) == 1 { return true }
        OpenSSLEncoding.clearErrors()
        X509_VERIFY_PARAM_set_hostflags(parameters, hostFlags)
        let set = X509_VERIFY_PARAM_set1_host(parameters, name, name.utf8.count) == 1
        OpenSSLEncoding.clearErrors()
        return set
    }
}

/// Collects the errors OpenSSL reports through the verify callback.
private final class ProblemCollector {
    var problems: [ChainProblem] = []
}

/// OpenSSL's verify callback: records the error and lets verification go on, so every problem is seen.
private let recordProblem: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, context in
    guard ok == 0, let context, let raw = kossl_store_ctx_context(context) else { return ok }
    let collector = Unmanaged<ProblemCollector>.fromOpaque(raw).takeUnretainedValue()
    let code = X509_STORE_CTX_get_error(context)
    let detail = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
    let problem = ChainProblem(
        index: Int(X509_STORE_CTX_get_error_depth(context)), kind: problemKind(code), detail: detail)
    if !collector.problems.contains(problem) { collector.problems.append(problem) }
    return 1
}

private func problemKind(_ code: Int32) -> ChainProblem.Kind {
    switch code {
    case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD: .expired
    case X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD: .notYetValid
    case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH: .hostnameMismatch
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN: .untrustedRoot
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
        X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        .missingIssuer
    case X509_V_ERR_INVALID_CA: .notCertificateAuthority
    case X509_V_ERR_KEYUSAGE_NO_CERTSIGN: .keyUsageWithoutCertificateSigning
    case X509_V_ERR_PERMITTED_VIOLATION, X509_V_ERR_EXCLUDED_VIOLATION, X509_V_ERR_SUBTREE_MINMAX,
        X509_V_ERR_UNSUPPORTED_CONSTRAINT_TYPE, X509_V_ERR_UNSUPPORTED_CONSTRAINT_SYNTAX,
        X509_V_ERR_UNSUPPORTED_NAME_SYNTAX:
        .nameConstraintsViolated
    case X509_V_ERR_PATH_LENGTH_EXCEEDED: .pathLengthExceeded
    case X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION: .unhandledCriticalExtension
    case X509_V_ERR_CERT_SIGNATURE_FAILURE: .badSignature
    default: .other(code)
    }
}
