import Foundation
import KeychainCore
import Synchronization

/// A trust management object: the certificates to evaluate, the policies, the anchors and the date, and the
/// result of the last evaluation (any change clears it).
public final class SecTrust: Hashable, CustomStringConvertible, Sendable {
    struct Settings {
        /// The leaf first, then the certificates that may help build its chain.
        var certificates: [SecCertificate]
        var policies: [SecPolicy]
        /// The anchors set by `SecTrustSetAnchorCertificates`, or nil for none.
        var customAnchors: [SecCertificate]?
        /// Whether only the custom anchors are trusted (true once custom anchors are set, as on Apple platforms).
        var customAnchorsOnly = false
        /// The date to evaluate at; nil for the time of the evaluation.
        var verifyDate: Date?
        /// The failures the user accepted (`SecTrustSetExceptions`), or nil.
        var exceptions: TrustExceptions?
        /// `SecTrustSetNetworkFetchAllowed`'s setting, or nil for the default.
        var networkFetchAllowed: Bool?
        /// The DER of the stapled OCSP responses (`SecTrustSetOCSPResponse`).
        var ocspResponses: [[UInt8]] = []
    }

    struct State {
        var settings: Settings
        var evaluation: TrustEvaluation?
        /// Counts changes, so that an evaluation of settings changed meanwhile is not kept.
        var generation = 0
    }

    let state: Mutex<State>

    init(certificates: [SecCertificate], policies: [SecPolicy]) {
        state = Mutex(State(settings: Settings(certificates: certificates, policies: policies)))
    }

    public var description: String {
        state.withLock { "<SecTrust: \($0.settings.certificates.count) certificates>" }
    }

    // Identity, as CFEqual and CFHash are for Apple's SecTrust: it registers no equality of its own
    // (`CFGiblisFor(SecTrust)`), and its settings change while it is used, so a value equality would move it in
    // a set.
    public static func == (lhs: SecTrust, rhs: SecTrust) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Changes the settings and forgets the last evaluation.
    func update(_ change: (inout Settings) -> Void) {
        state.withLock { state in
            change(&state.settings)
            state.evaluation = nil
            state.generation += 1
        }
    }

    /// The last evaluation, or a new one when there is none.
    func evaluation() -> TrustEvaluation {
        let (settings, cached, generation) = state.withLock { ($0.settings, $0.evaluation, $0.generation) }
        if let cached { return cached }
        // Evaluated outside the lock: building a chain can read the system's CA directory.
        let evaluation = TrustEvaluation(settings: settings)
        state.withLock { state in
            if state.generation == generation { state.evaluation = evaluation }
        }
        return evaluation
    }
}

/// The type identifier of `SecTrust`.
public func SecTrustGetTypeID() -> CFTypeID { SecTypeIdentifiers.trust }

/// Items of a `CFTypeRef` that is either one `T` or an array of them; nil when anything else is in it.
private func oneOrMany<T>(_ value: CFTypeRef, as type: T.Type) -> [T]? {
    if let single = value as? T { return [single] }
    let elements: [Any]
    if let array = value as? NSArray {
        elements = array.map { $0 }
    } else if let array = value as? [Any] {
        elements = array
    } else {
        return nil
    }
    let typed = elements.compactMap { $0 as? T }
    return typed.count == elements.count ? typed : nil
}

/// Creates a trust management object.
/// - Parameters:
///   - certificates: the certificate to evaluate, or an array whose first element is that certificate and whose
///     others may help build its chain.
///   - policies: a policy, an array of policies, or nil for the basic X.509 policy.
///   - trust: receives the object.
/// - Returns: `errSecSuccess`, or `errSecParam` when an argument holds anything else or no certificate.
public func SecTrustCreateWithCertificates(
    _ certificates: CFTypeRef, _ policies: CFTypeRef?, _ trust: UnsafeMutablePointer<SecTrust?>
) -> OSStatus {
    guard let certificateList = oneOrMany(certificates, as: SecCertificate.self), !certificateList.isEmpty else {
        return errSecParam
    }
    var policyList = [SecPolicyCreateBasicX509()]
    if let policies {
        guard let list = oneOrMany(policies, as: SecPolicy.self) else { return errSecParam }
        policyList = list
    }
    trust.pointee = SecTrust(certificates: certificateList, policies: policyList)
    return errSecSuccess
}

/// Replaces the policies of a trust management object.
/// - Parameters:
///   - trust: the object.
///   - policies: a policy or an array of policies.
/// - Returns: `errSecSuccess`, or `errSecParam` when `policies` holds anything else.
public func SecTrustSetPolicies(_ trust: SecTrust, _ policies: CFTypeRef) -> OSStatus {
    guard let list = oneOrMany(policies, as: SecPolicy.self) else { return errSecParam }
    trust.update { $0.policies = list }
    return errSecSuccess
}

/// The policies of a trust management object.
/// - Parameters:
///   - trust: the object.
///   - policies: receives an array of `SecPolicy`.
/// - Returns: `errSecSuccess`.
public func SecTrustCopyPolicies(_ trust: SecTrust, _ policies: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    policies.pointee = trust.state.withLock { $0.settings.policies } as NSArray
    return errSecSuccess
}

/// Sets the anchors: the certificates trusted as the end of a chain. From then on only they are trusted, until
/// `SecTrustSetAnchorCertificatesOnly(trust, false)` adds the system's CA certificates back.
/// - Parameters:
///   - trust: the object.
///   - anchorCertificates: an array of `SecCertificate`, or nil to go back to the system's anchors alone.
/// - Returns: `errSecSuccess`, or `errSecParam` when the array holds anything else.
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus {
    guard let anchorCertificates else {
        trust.update {
            $0.customAnchors = nil
            $0.customAnchorsOnly = false
        }
        return errSecSuccess
    }
    guard let anchors = oneOrMany(anchorCertificates, as: SecCertificate.self) else { return errSecParam }
    trust.update {
        $0.customAnchors = anchors
        $0.customAnchorsOnly = true
    }
    return errSecSuccess
}

/// The anchors set by `SecTrustSetAnchorCertificates`.
/// - Parameters:
///   - trust: the object.
///   - anchors: receives the array, or nil when none is set.
/// - Returns: `errSecSuccess`.
public func SecTrustCopyCustomAnchorCertificates(
    _ trust: SecTrust, _ anchors: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    anchors.pointee = trust.state.withLock { $0.settings.customAnchors }.map { $0 as NSArray }
    return errSecSuccess
}

/// Chooses whether only the custom anchors are trusted (true) or the system's CA certificates as well (false).
/// - Parameters:
///   - trust: the object.
///   - anchorCertificatesOnly: true for the custom anchors alone.
/// - Returns: `errSecSuccess`.
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus {
    trust.update { $0.customAnchorsOnly = anchorCertificatesOnly }
    return errSecSuccess
}

/// Sets the date at which the certificates must be valid (by default, the time of the evaluation).
/// - Parameters:
///   - trust: the object.
///   - verifyDate: the date.
/// - Returns: `errSecSuccess`, or `errSecParam` for a date no certificate can be checked at (not a number,
///   infinite, or outside the years a keychain date can hold).
public func SecTrustSetVerifyDate(_ trust: SecTrust, _ verifyDate: CFDate) -> OSStatus {
    let date = verifyDate as Date
    guard AttributeValue.isValidDate(date) else { return errSecParam }
    trust.update { $0.verifyDate = date }
    return errSecSuccess
}

/// The certificate chain of the evaluation, leaf first and anchor last (evaluating first when needed).
/// - Parameter trust: the object.
/// - Returns: an array of `SecCertificate`.
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? {
    trust.evaluation().chain as NSArray
}

/// The number of certificates in the evaluated chain (evaluating first when needed).
/// - Parameter trust: the object.
/// - Returns: the count.
public func SecTrustGetCertificateCount(_ trust: SecTrust) -> CFIndex {
    trust.evaluation().chain.count
}

/// One certificate of the evaluated chain (evaluating first when needed).
/// - Parameters:
///   - trust: the object.
///   - ix: the index, 0 for the leaf.
/// - Returns: the certificate, or nil when `ix` is out of range.
@available(*, deprecated, renamed: "SecTrustCopyCertificateChain")
public func SecTrustGetCertificateAtIndex(_ trust: SecTrust, _ ix: CFIndex) -> SecCertificate? {
    let chain = trust.evaluation().chain
    return chain.indices.contains(ix) ? chain[ix] : nil
}

/// Evaluates trust: builds the chain and applies every policy.
/// - Parameters:
///   - trust: the object.
///   - error: receives, on failure, an `NSOSStatusErrorDomain` error whose code is the status of the most
///     important failure (`errSecNotTrusted`, `errSecHostNameMismatch`, `errSecCertificateExpired`…) and whose
///     description names the certificate (“name” certificate is expired); its underlying error lists every
///     failure of every certificate.
/// - Returns: true when the chain is trusted for every policy.
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    let evaluation = trust.evaluation()
    error?.pointee = evaluation.error
    return evaluation.error == nil
}
