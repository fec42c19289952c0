import Foundation

/// A trust policy: what `SecTrustEvaluateWithError` checks besides the chain itself.
public final class SecPolicy: Hashable, CustomStringConvertible, @unchecked Sendable {  // safe: immutable
    enum Rule: Hashable {
        /// Chain, signatures, validity dates, basic constraints.
        case basicX509
        /// The basic rules, plus the TLS rules for a server's (or a client's) certificate and its host name.
        case ssl(server: Bool, hostname: String?)
    }

    let rule: Rule

    init(rule: Rule) { self.rule = rule }

    public static func == (lhs: SecPolicy, rhs: SecPolicy) -> Bool { lhs.rule == rhs.rule }
    public func hash(into hasher: inout Hasher) { hasher.combine(rule) }

    public var description: String {
        switch rule {
        case .basicX509: "<SecPolicy: basic X.509>"
        case .ssl(let server, let hostname): "<SecPolicy: SSL \(server ? "server" : "client") \(hostname ?? "")>"
        }
    }
}

/// The type identifier of `SecPolicy`.
public func SecPolicyGetTypeID() -> CFTypeID { SecTypeIdentifiers.policy }

/// The basic X.509 policy: a chain to a trusted anchor, valid signatures, dates and basic constraints.
/// - Returns: the policy.
public func SecPolicyCreateBasicX509() -> SecPolicy { SecPolicy(rule: .basicX509) }

/// The SSL/TLS policy.
/// - Parameters:
///   - server: true to check a server's certificate (extended key usage serverAuth when the extension is present,
///     the host name), false for a client's (clientAuth).
///   - hostname: the DNS name or IP address the server certificate's subject alternative names must contain; nil
///     to check no name.
/// - Returns: the policy.
public func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy {
    SecPolicy(rule: .ssl(server: server, hostname: hostname.map { $0 as String }))
}

/// Creates a policy from its object identifier and properties, as `SecPolicyCopyProperties` describes one.
/// - Parameters:
///   - policyIdentifier: `kSecPolicyAppleX509Basic`, `kSecPolicyAppleSSL`, or iOS 18.4's
///     `kSecPolicyAppleSSLServer` and `kSecPolicyAppleSSLClient` (the SSL policy for that side).
///   - properties: for SSL, `kSecPolicyName` (the host name, a string) and `kSecPolicyClient` (true to check a
///     client's certificate); ignored for basic X.509.
/// - Returns: the policy; nil for the identifier of a policy that does not exist here (S/MIME, code signing, …;
///   revocation, as `SecPolicyCreateRevocation`) and for a name or client flag of another type, so that a caller
///   who asked for a check never gets a policy that skips it.
public func SecPolicyCreateWithProperties(_ policyIdentifier: CFTypeRef, _ properties: CFDictionary?) -> SecPolicy? {
    guard let identifier = SecDictionary.string(policyIdentifier) else { return nil }
    switch identifier {
    case String(kSecPolicyAppleX509Basic):
        return SecPolicyCreateBasicX509()
    case String(kSecPolicyAppleSSL), String(kSecPolicyAppleSSLServer), String(kSecPolicyAppleSSLClient):
        let values = properties as? [String: Any] ?? [:]
        var hostname: String?
        if let name = values[kSecPolicyName as String] {
            guard let text = SecDictionary.string(name) else { return nil }
            hostname = text
        }
        var checksClient = identifier == String(kSecPolicyAppleSSLClient)
        if let client = values[kSecPolicyClient as String] {
            guard let flag = try? SecDictionary.boolean(client, kSecPolicyClient as String) else { return nil }
            checksClient = flag
        }
        return SecPolicy(rule: .ssl(server: !checksClient, hostname: hostname))
    default:
        return nil
    }
}

/// The properties of a policy: `kSecPolicyOid`, and for an SSL policy `kSecPolicyName` (its host name, when set)
/// and `kSecPolicyClient` (when it checks a client).
/// - Parameter policyRef: the policy.
/// - Returns: the properties.
public func SecPolicyCopyProperties(_ policyRef: SecPolicy) -> CFDictionary? {
    var properties: [String: Any] = [:]
    switch policyRef.rule {
    case .basicX509:
        properties[kSecPolicyOid as String] = kSecPolicyAppleX509Basic
    case .ssl(let server, let hostname):
        properties[kSecPolicyOid as String] = kSecPolicyAppleSSL
        if let hostname { properties[kSecPolicyName as String] = hostname as NSString }
        if !server { properties[kSecPolicyClient as String] = kCFBooleanTrue }
    }
    return properties as NSDictionary
}
