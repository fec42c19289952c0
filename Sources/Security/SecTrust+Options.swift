import Dispatch
import Foundation

/// A C `Boolean`, as Swift shows it on Apple platforms (`DarwinBoolean`): what `SecTrustGetNetworkFetchAllowed`
/// writes. Linux's Swift has no such type, so Security declares it.
public struct DarwinBoolean: ExpressibleByBooleanLiteral, Equatable, Hashable, Sendable, CustomStringConvertible {
    private let value: UInt8

    public init(_ value: Bool) { self.value = value ? 1 : 0 }
    public init(booleanLiteral value: Bool) { self.init(value) }

    /// The value as a `Bool`.
    public var boolValue: Bool { value != 0 }
    public var description: String { boolValue.description }
}

/// The key of `SecTrustCopyResult`'s dictionary that holds the date the evaluation used (`CFDate`).
nonisolated(unsafe) public let kSecTrustEvaluationDate: CFString = SecConstant("TrustEvaluationDate")
/// The key of `SecTrustCopyResult`'s dictionary that holds the result (`SecTrustResultType`'s raw value).
nonisolated(unsafe) public let kSecTrustResultValue: CFString = SecConstant("TrustResultValue")

// Keys of `SecTrustCopyResult`'s dictionary. Revocation is checked only through stapled responses
// (`SecTrustSetOCSPResponse`): the two revocation keys are there when one was used. Extended validation and
// certificate transparency are not checked here: their keys exist so that code reading them compiles, and the
// dictionary never holds them, as an Apple trust that did not make a check leaves its key out.

/// Whether the leaf passed extended validation (`CFBoolean`).
nonisolated(unsafe) public let kSecTrustExtendedValidation: CFString = SecConstant("TrustExtendedValidation")
/// The organization an extended-validation certificate names (`CFString`).
nonisolated(unsafe) public let kSecTrustOrganizationName: CFString = SecConstant("Organization")
/// Whether revocation was checked (`CFBoolean`).
nonisolated(unsafe) public let kSecTrustRevocationChecked: CFString = SecConstant("TrustRevocationChecked")
/// Until when the revocation check holds (`CFDate`).
nonisolated(unsafe) public let kSecTrustRevocationValidUntilDate: CFString = SecConstant("TrustExpirationDate")
/// Whether the certificate passed the certificate transparency checks (`CFBoolean`).
nonisolated(unsafe) public let kSecTrustCertificateTransparency: CFString = SecConstant(
    "TrustCertificateTransparency")
/// Whether an EV chain without CT qualification was let through as an exception (`CFBoolean`). Apple stopped
/// returning it in iOS 11 and macOS 10.13, once the exempted certificates had expired; no result here holds it.
@available(*, deprecated, message: "no trust result holds it since iOS 11")
nonisolated(unsafe) public let kSecTrustCertificateTransparencyWhiteList: CFString = SecConstant(
    "TrustCertificateTransparencyWhiteList")

/// Allows or forbids fetching what an evaluation lacks over the network (intermediate certificates). This
/// keychain never fetches anything: the setting is kept and reported, and evaluations use only the certificates
/// given and the system's anchors.
/// - Parameters:
///   - trust: the object.
///   - allowFetch: whether fetching is allowed.
/// - Returns: `errSecSuccess`.
public func SecTrustSetNetworkFetchAllowed(_ trust: SecTrust, _ allowFetch: Bool) -> OSStatus {
    trust.update { $0.networkFetchAllowed = allowFetch }
    return errSecSuccess
}

/// Whether fetching over the network is allowed: as set, or by default when any policy is an SSL policy.
/// - Parameters:
///   - trust: the object.
///   - allowFetch: receives the setting.
/// - Returns: `errSecSuccess`.
public func SecTrustGetNetworkFetchAllowed(_ trust: SecTrust, _ allowFetch: UnsafeMutablePointer<DarwinBoolean>)
    -> OSStatus
{
    let settings = trust.state.withLock { $0.settings }
    let byDefault = settings.policies.contains { if case .ssl = $0.rule { true } else { false } }
    allowFetch.pointee = DarwinBoolean(settings.networkFetchAllowed ?? byDefault)
    return errSecSuccess
}

/// The time an evaluation checks validity at: the date set by `SecTrustSetVerifyDate`, or now.
/// - Parameter trust: the object.
/// - Returns: seconds since 1 January 2001 (`CFAbsoluteTime`).
public func SecTrustGetVerifyTime(_ trust: SecTrust) -> CFAbsoluteTime {
    (trust.state.withLock { $0.settings.verifyDate } ?? Date()).timeIntervalSinceReferenceDate
}

/// What the evaluation found (evaluating first when needed): `kSecTrustResultValue` and `kSecTrustEvaluationDate`.
/// - Parameter trust: the object.
/// - Returns: the dictionary.
public func SecTrustCopyResult(_ trust: SecTrust) -> CFDictionary? {
    let evaluation = trust.evaluation()
    var result: [String: Any] = [
        kSecTrustResultValue as String: NSNumber(value: evaluation.resultType.rawValue),
        kSecTrustEvaluationDate as String: evaluation.date as NSDate,
    ]
    if let revocation = evaluation.revocation {
        result[kSecTrustRevocationChecked as String] = kCFBooleanTrue
        if let until = revocation.validUntil { result[kSecTrustRevocationValidUntilDate as String] = until as NSDate }
    }
    return result as NSDictionary
}

/// What `SecTrustEvaluateAsync` calls with the result.
public typealias SecTrustCallback = (SecTrust, SecTrustResultType) -> Void

/// Evaluates trust away from the calling thread and calls `result` on `queue` with the result in the older form
/// (deprecated by Apple for `SecTrustEvaluateAsyncWithError`).
/// - Parameters:
///   - trust: the object.
///   - queue: the queue `result` runs on.
///   - result: receives the object and the result, as `SecTrustEvaluate` gives it.
/// - Returns: `errSecSuccess`.
@available(*, deprecated, renamed: "SecTrustEvaluateAsyncWithError")
public func SecTrustEvaluateAsync(
    _ trust: SecTrust, _ queue: DispatchQueue?, _ result: @escaping SecTrustCallback
) -> OSStatus {
    // Apple's callback type is not @Sendable; it is called once, on the caller's queue, as Apple does.
    nonisolated(unsafe) let callback = result
    DispatchQueue.global().async {
        let evaluated = trust.evaluation().resultType
        (queue ?? DispatchQueue.global()).async { callback(trust, evaluated) }
    }
    return errSecSuccess
}

/// Gives the evaluation stapled OCSP responses, as a TLS server sends them, replacing any given before. A
/// response that verifies (signed by the leaf's issuer or a responder it authorized), names the leaf and is current
/// at the evaluation's date is used: revoked fails the evaluation with `errSecCertificateRevoked`, which no
/// exception excuses. Any other response is ignored, as if none had been given. Nothing is fetched.
/// - Parameters:
///   - trust: the object.
///   - responseData: one response's DER (`CFData`), an array of them, or nil to clear them.
/// - Returns: `errSecSuccess`; `errSecParam` for anything else.
public func SecTrustSetOCSPResponse(_ trust: SecTrust, _ responseData: CFTypeRef?) -> OSStatus {
    var responses: [[UInt8]] = []
    if let responseData {
        if let one = SecDictionary.bytes(responseData) {
            responses = [one]
        } else if let many = responseData as? [Any] {
            for element in many {
                guard let bytes = SecDictionary.bytes(element) else { return errSecParam }
                responses.append(bytes)
            }
        } else {
            return errSecParam
        }
    }
    trust.update { $0.ocspResponses = responses }
    return errSecSuccess
}

/// Gives the evaluation signed certificate timestamps (an array of `CFData`) for certificate transparency, which
/// nothing here checks: `errSecUnimplemented` rather than timestamps accepted and never read; nil is
/// `errSecSuccess`.
/// - Parameters:
///   - trust: the object.
///   - sctArray: the timestamps, or nil.
/// - Returns: `errSecSuccess` for nil; `errSecUnimplemented` otherwise.
public func SecTrustSetSignedCertificateTimestamps(_ trust: SecTrust, _ sctArray: CFArray?) -> OSStatus {
    sctArray == nil ? errSecSuccess : errSecUnimplemented
}
