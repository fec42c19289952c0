import Foundation

// The keys and values of SecPolicy.h and SecTrust.h that this implementation uses, with Apple's raw strings.

/// The policy object identifier of the basic X.509 policy.
nonisolated(unsafe) public let kSecPolicyAppleX509Basic: CFString = SecConstant("1.2.840.113635.100.1.2")
/// The policy object identifier of the SSL/TLS policy.
nonisolated(unsafe) public let kSecPolicyAppleSSL: CFString = SecConstant("1.2.840.113635.100.1.3")
/// The policy object identifier of the SSL/TLS policy for a server's certificate (iOS 18.4, macOS 15.4).
nonisolated(unsafe) public let kSecPolicyAppleSSLServer: CFString = SecConstant("1.2.840.113635.100.1.3.1")
/// The policy object identifier of the SSL/TLS policy for a client's certificate (iOS 18.4, macOS 15.4).
nonisolated(unsafe) public let kSecPolicyAppleSSLClient: CFString = SecConstant("1.2.840.113635.100.1.3.2")

// Apple's other policies, with their identifiers so that code naming them compiles. None of them exists here:
// `SecPolicyCreateWithProperties` answers nil for each (docs/certificates.md).

/// S/MIME.
nonisolated(unsafe) public let kSecPolicyAppleSMIME: CFString = SecConstant("1.2.840.113635.100.1.8")
/// EAP.
nonisolated(unsafe) public let kSecPolicyAppleEAP: CFString = SecConstant("1.2.840.113635.100.1.9")
/// EAP, a server's certificate (iOS 18.4).
nonisolated(unsafe) public let kSecPolicyAppleEAPServer: CFString = SecConstant("1.2.840.113635.100.1.9.1")
/// EAP, a client's certificate (iOS 18.4).
nonisolated(unsafe) public let kSecPolicyAppleEAPClient: CFString = SecConstant("1.2.840.113635.100.1.9.2")
/// IPsec.
nonisolated(unsafe) public let kSecPolicyAppleIPsec: CFString = SecConstant("1.2.840.113635.100.1.11")
/// IPsec, a server's certificate (iOS 18.4).
nonisolated(unsafe) public let kSecPolicyAppleIPSecServer: CFString = SecConstant("1.2.840.113635.100.1.11.1")
/// IPsec, a client's certificate (iOS 18.4).
nonisolated(unsafe) public let kSecPolicyAppleIPSecClient: CFString = SecConstant("1.2.840.113635.100.1.11.2")
/// Code signing.
nonisolated(unsafe) public let kSecPolicyAppleCodeSigning: CFString = SecConstant("1.2.840.113635.100.1.16")
/// Apple ID validation.
nonisolated(unsafe) public let kSecPolicyAppleIDValidation: CFString = SecConstant("1.2.840.113635.100.1.18")
/// Mac App Store receipts.
nonisolated(unsafe) public let kSecPolicyMacAppStoreReceipt: CFString = SecConstant("1.2.840.113635.100.1.19")
/// Time stamping.
nonisolated(unsafe) public let kSecPolicyAppleTimeStamping: CFString = SecConstant("1.2.840.113635.100.1.20")
/// Passbook signing.
nonisolated(unsafe) public let kSecPolicyApplePassbookSigning: CFString = SecConstant("1.2.840.113635.100.1.22")
/// Apple Pay issuer encryption.
nonisolated(unsafe) public let kSecPolicyApplePayIssuerEncryption: CFString = SecConstant(
    "1.2.840.113635.100.1.39")
/// A policy property: the revocation flags of a revocation policy.
nonisolated(unsafe) public let kSecPolicyRevocationFlags: CFString = SecConstant("SecPolicyRevocationFlags")
/// A policy property: the team identifier a Passbook signing policy checks.
nonisolated(unsafe) public let kSecPolicyTeamIdentifier: CFString = SecConstant("SecPolicyTeamIdentifier")

/// `SecPolicyCopyProperties`: the policy's object identifier.
nonisolated(unsafe) public let kSecPolicyOid: CFString = SecConstant("SecPolicyOid")
/// `SecPolicyCopyProperties`: the name the policy checks (the host name of an SSL policy).
nonisolated(unsafe) public let kSecPolicyName: CFString = SecConstant("SecPolicyName")
/// `SecPolicyCopyProperties`: true for an SSL policy that checks a client's certificate.
nonisolated(unsafe) public let kSecPolicyClient: CFString = SecConstant("SecPolicyClient")
