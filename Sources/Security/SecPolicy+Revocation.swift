import Foundation

// Revocation checking (SecPolicy.h). The flags exist so that code asking for a revocation policy compiles; the
// policy does not, since nothing here fetches OCSP responses or CRLs (docs/certificates.md).

/// Check revocation with OCSP.
public let kSecRevocationOCSPMethod: CFOptionFlags = 1 << 0
/// Check revocation with certificate revocation lists.
public let kSecRevocationCRLMethod: CFOptionFlags = 1 << 1
/// With both methods, try CRLs first.
public let kSecRevocationPreferCRL: CFOptionFlags = 1 << 2
/// Fail unless a verified positive response is obtained.
public let kSecRevocationRequirePositiveResponse: CFOptionFlags = 1 << 3
/// Consult only responses already at hand, with no network access.
public let kSecRevocationNetworkAccessDisabled: CFOptionFlags = 1 << 4
/// OCSP or CRLs, as the certificate offers.
public let kSecRevocationUseAnyAvailableMethod: CFOptionFlags = kSecRevocationOCSPMethod | kSecRevocationCRLMethod

/// The policy object identifier of the revocation policy.
nonisolated(unsafe) public let kSecPolicyAppleRevocation: CFString = SecConstant("1.2.840.113635.100.1.21")

/// A revocation policy, to add to a trust's policies.
///
/// Always nil here: this keychain has no OCSP client and no CRL store, and a policy that passed without checking
/// would tell the caller that a revoked certificate is good. Callers treat nil as Apple documents it, a policy
/// that could not be made, and code that then refuses to trust fails closed. (Apple's answer is nil too for no
/// flags or for undefined bits.)
/// - Parameter revocationFlags: the `kSecRevocation…` flags.
/// - Returns: nil.
public func SecPolicyCreateRevocation(_ revocationFlags: CFOptionFlags) -> SecPolicy? { nil }
