import Foundation
import Security
import Testing

extension CertificateFixtures {
    /// What `SecTrustEvaluateWithError` and `SecTrustGetTrustResult` said of a chain of fixtures.
    struct Evaluation {
        let trusted: Bool
        let error: NSError?
        let result: SecTrustResultType

        /// The underlying error's text: the per-certificate detail Apple gives.
        var detail: String? { (error?.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription }
    }

    /// Evaluates the fixtures `names` (leaf first) under `policy`, with the fixtures `anchors` as the app's anchors.
    func evaluate(_ names: [String], policy: SecPolicy, anchors: [String] = ["root"]) throws -> Evaluation {
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(try names.map(certificate) as CFArray, policy, &trust) == errSecSuccess)
        let created = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(created, try anchors.map(certificate) as CFArray) == errSecSuccess)
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(created, &error)
        var result = SecTrustResultType.invalid
        #expect(SecTrustGetTrustResult(created, &result) == errSecSuccess)
        return Evaluation(trusted: trusted, error: error as NSError?, result: result)
    }
}
