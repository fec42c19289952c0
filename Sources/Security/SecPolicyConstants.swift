import Foundation

// The keys and values of SecPolicy.h and SecTrust.h that this implementation uses, with Apple's raw strings.

/// The policy object identifier of the basic X.509 policy.
nonisolated(unsafe) public let kSecPolicyAppleX509Basic: CFString = SecConstant("1.2.840.113635.100.1.2")
/// The policy object identifier of the SSL/TLS policy.
nonisolated(unsafe) public let kSecPolicyAppleSSL: CFString = SecConstant("1.2.840.113635.100.1.3")
/// `SecPolicyCopyProperties`: the policy's object identifier.
nonisolated(unsafe) public let kSecPolicyOid: CFString = SecConstant("SecPolicyOid")
/// `SecPolicyCopyProperties`: the name the policy checks (the host name of an SSL policy).
nonisolated(unsafe) public let kSecPolicyName: CFString = SecConstant("SecPolicyName")
/// `SecPolicyCopyProperties`: true for an SSL policy that checks a client's certificate.
nonisolated(unsafe) public let kSecPolicyClient: CFString = SecConstant("SecPolicyClient")
