import Foundation

// The public keys of certificates and trusts, as the `SecKey`s their SubjectPublicKeyInfo describes.

/// The public key of a certificate.
/// - Parameter certificate: the certificate.
/// - Returns: the key, or nil when its type is not one `SecKey` supports (EC P-256/384/521, RSA).
public func SecCertificateCopyKey(_ certificate: SecCertificate) -> SecKey? {
    SecKey(subjectPublicKeyInfo: certificate.subjectPublicKeyInfo)
}

/// The public key of a certificate (the older name of `SecCertificateCopyKey`).
/// - Parameter certificate: the certificate.
/// - Returns: the key, or nil when its type is not supported.
@available(*, deprecated, renamed: "SecCertificateCopyKey")
public func SecCertificateCopyPublicKey(_ certificate: SecCertificate) -> SecKey? {
    SecCertificateCopyKey(certificate)
}

/// The public key of the leaf certificate of a trust, evaluating first when needed.
/// - Parameter trust: the trust.
/// - Returns: the key, or nil when its type is not supported.
public func SecTrustCopyKey(_ trust: SecTrust) -> SecKey? {
    trust.evaluation().chain.first.flatMap(SecCertificateCopyKey)
}

/// The public key of the leaf certificate of a trust (the older name of `SecTrustCopyKey`).
/// - Parameter trust: the trust.
/// - Returns: the key, or nil when its type is not supported.
@available(*, deprecated, renamed: "SecTrustCopyKey")
public func SecTrustCopyPublicKey(_ trust: SecTrust) -> SecKey? {
    SecTrustCopyKey(trust)
}
