import Foundation
import KeychainCore

/// One of Apple's trust checks that can fail, with the status, the kind of failure and the text Apple gives it.
enum SecTrustCheck: Equatable {
    case sslHostname
    case temporalValidity
    case keyUsage
    case extendedKeyUsage
    /// A TLS server chain without the serverAuth purpose Apple requires of it (ServerAuthEKU).
    case serverAuthenticationUsage
    /// An issuing certificate without basicConstraints.
    case basicConstraints
    /// An issuing certificate whose basicConstraints say it is not a CA.
    case basicConstraintsCA
    /// A name of the certificate outside the name constraints of a CA above it.
    case nameConstraints
    case basicConstraintsPathLength
    /// The chain ends in a self-signed certificate that is not trusted.
    case anchorTrusted
    /// The chain ends in a certificate whose issuer is not available.
    case missingIntermediate
    case criticalExtensions
    /// A signature in the chain does not verify.
    case signature
    /// A stapled OCSP response says the certificate is revoked.
    case revoked
    /// A key too weak for any use: RSA under 1,024 bits, EC under 160, or of an algorithm Apple does not know.
    case weakKeySize
    /// An MD2, MD4 or MD5 signature on a certificate that is not self-signed.
    case weakSignature
    /// A key under the SSL server policy's minimum: RSA under 2,048 bits, EC under 256.
    case keySize
    /// A signature hash the SSL server policy refuses (MD2, MD4, MD5 or SHA-1) on a certificate that is not
    /// self-signed.
    case signatureHashAlgorithms
    /// Another failure, with OpenSSL's text for it.
    case other(String)

    /// The status `SecTrustEvaluateWithError` reports when this check decides the error.
    var status: OSStatus {
        switch self {
        case .sslHostname: SecurityStatus.hostNameMismatch
        case .temporalValidity: SecurityStatus.certificateExpired
        case .keyUsage: SecurityStatus.invalidKeyUsageForPolicy
        case .extendedKeyUsage, .serverAuthenticationUsage: SecurityStatus.invalidExtendedKeyUsage
        case .basicConstraints: SecurityStatus.noBasicConstraints
        case .basicConstraintsCA: SecurityStatus.noBasicConstraintsCA
        case .nameConstraints: errSecInvalidName
        case .basicConstraintsPathLength: SecurityStatus.pathLengthConstraintExceeded
        case .anchorTrusted, .signature, .other: SecurityStatus.notTrusted
        case .missingIntermediate: SecurityStatus.createChainFailed
        case .criticalExtensions: SecurityStatus.unknownCriticalExtensionFlag
        case .revoked: errSecCertificateRevoked
        case .weakKeySize, .keySize: errSecUnsupportedKeySize
        case .weakSignature, .signatureHashAlgorithms: errSecInvalidDigestAlgorithm
        }
    }

    /// Whether a failure of this check is fatal, as Apple classes revocation and broken keys and signatures: the
    /// result is `.fatalTrustFailure`, and no exception the user made excuses it.
    var isFatal: Bool { self == .revoked || self == .weakKeySize || self == .weakSignature }

    /// The check's name in trust exceptions (Apple's policy check names where it has one).
    var exceptionKey: String {
        switch self {
        case .sslHostname: "SSLHostname"
        case .temporalValidity: "TemporalValidity"
        case .keyUsage: "KeyUsage"
        case .extendedKeyUsage: "ExtendedKeyUsage"
        case .serverAuthenticationUsage: "ServerAuthEKU"
        case .basicConstraints: "BasicConstraints"
        case .basicConstraintsCA: "BasicConstraintsCA"
        case .nameConstraints: "NameConstraints"
        case .basicConstraintsPathLength: "BasicConstraintsPathLen"
        case .anchorTrusted: "AnchorTrusted"
        case .missingIntermediate: "MissingIntermediate"
        case .criticalExtensions: "CriticalExtensions"
        case .signature: "SignatureVerification"
        case .revoked: "Revocation"
        case .weakKeySize: "WeakKeySize"
        case .weakSignature: "WeakSignature"
        case .keySize: "KeySize"
        case .signatureHashAlgorithms: "SignatureHashAlgorithms"
        case .other: "Other"
        }
    }

    var kind: SecTrustFailureKind {
        switch self {
        case .sslHostname: .name
        case .temporalValidity: .expired
        case .keyUsage, .extendedKeyUsage, .serverAuthenticationUsage: .usage
        case .basicConstraints, .basicConstraintsCA, .basicConstraintsPathLength, .criticalExtensions,
            .nameConstraints:
            .compliance
        case .anchorTrusted, .missingIntermediate, .signature, .other: .trust
        case .revoked: .revoked
        case .weakKeySize, .keySize: .keySize
        case .weakSignature, .signatureHashAlgorithms: .weakHash
        }
    }

    /// The per-certificate text of the detailed description.
    var text: String {
        switch self {
        case .sslHostname: "SSL hostname does not match name(s) in certificate"
        case .temporalValidity: "Certificate is not temporally valid"
        case .keyUsage: "Key usage does not match certificate usage"
        case .extendedKeyUsage, .serverAuthenticationUsage: "Extended key usage does not match certificate usage"
        case .basicConstraints: "Basic constraints are required but missing"
        case .basicConstraintsCA: "Non-CA certificate used as a CA"
        case .nameConstraints: "Name constraints violated"
        case .basicConstraintsPathLength: "Chain exceeded constrained path length"
        case .anchorTrusted: "Root is not trusted"
        case .missingIntermediate: "Unable to build chain to root (possible missing intermediate)"
        case .criticalExtensions: "Found unknown critical extensions"
        case .signature: "Certificate signature does not verify"
        case .revoked: "Certificate is revoked"
        case .weakKeySize: "Certificate is using a broken key size"
        case .weakSignature: "Certificate is using a broken signature algorithm"
        case .keySize: "Key size is not permitted for this use"
        case .signatureHashAlgorithms: "Signature hash algorithm is not permitted for this use"
        case .other(let detail): detail
        }
    }
}

/// The kinds of failure, most important first: when several checks fail, the error reports the most important
/// kind, on the certificate nearest the leaf.
enum SecTrustFailureKind: Int, Comparable {
    case revoked, keySize, weakHash, compliance, trust, usage, name, expired

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The short description, about the certificate named by its subject summary.
    func sentence(about summary: String) -> String {
        switch self {
        case .revoked: "“\(summary)” certificate is revoked"
        case .keySize: "“\(summary)” certificate is using a broken key size"
        case .weakHash: "“\(summary)” certificate is using a broken signature algorithm"
        case .compliance: "“\(summary)” certificate is not standards compliant"
        case .trust: "“\(summary)” certificate is not trusted"
        case .usage: "“\(summary)” certificate is not permitted for this usage"
        case .name: "“\(summary)” certificate name does not match input"
        case .expired: "“\(summary)” certificate is expired"
        }
    }
}
