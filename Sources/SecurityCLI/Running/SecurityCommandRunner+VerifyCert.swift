import Foundation
import KeychainCore
import KeychainMessages
import Security

extension SecurityCommandRunner {
    /// `verify-cert`: builds a `SecTrust` of the files' certificates with the policy, anchors and date asked for,
    /// and evaluates it. Success prints macOS's line and exits 0; a failure prints `Cert Verify Result:` and the
    /// trust error's text, each certificate's failures after it, and exits 1, as macOS's verb does.
    func verifyCertificates(_ command: VerifyCertCommand) throws(CommandFailure) -> Int32 {
        let operation = "SecTrustEvaluateWithError"
        var certificates: [SecCertificate] = []
        for file in command.certificateFiles {
            certificates += try CertificateFiles.read(file, operation: operation)
        }
        var anchors: [SecCertificate] = []
        for file in command.anchorFiles { anchors += try CertificateFiles.read(file, operation: operation) }
        let policy: SecPolicy =
            switch command.effectivePolicy {
            case .basic: SecPolicyCreateBasicX509()
            case .ssl: SecPolicyCreateSSL(!command.client, command.hostName as CFString?)
            }
        var created: SecTrust?
        let status = SecTrustCreateWithCertificates(certificates as CFArray, policy, &created)
        guard status == errSecSuccess, let trust = created else {
            throw CommandFailure(operation, KeychainError(status).because("the trust could not be created"))
        }
        if !anchors.isEmpty { _ = SecTrustSetAnchorCertificates(trust, anchors as CFArray) }
        if let date = command.date { _ = SecTrustSetVerifyDate(trust, date as CFDate) }
        var failure: CFError?
        if SecTrustEvaluateWithError(trust, &failure) {
            if format.json {
                output.writeLine(JSONText.encode(["trusted": true, "chain": Self.chain(trust)]))
            } else if !command.quiet, !format.quiet {
                output.writeLine("...certificate verification successful.")
            }
            return ExitCode.success
        }
        let error = failure
        // The trust error's text is shown as it is; JSON is English, as for every failure.
        let description = error?.localizedDescription ?? CommandMessage.certificateNotTrusted.text(in: language)
        let englishDescription = error?.localizedDescription ?? CommandMessage.certificateNotTrusted.text(in: .english)
        let details = (error?.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription
        errors.writeLine("Cert Verify Result: \(description)")
        if let details, !format.quiet { errors.writeLine(details) }
        if format.json {
            var object: [String: Any] = [
                "operation": operation, "status": error?.code ?? Int(errSecNotTrusted), "message": englishDescription,
            ]
            if let details { object["reason"] = details }
            output.writeLine(JSONText.encode(["trusted": false, "error": object]))
        }
        return ExitCode.failure
    }

    /// The chain the evaluation built, leaf first: each certificate's subject summary and SHA-1 fingerprint.
    private static func chain(_ trust: SecTrust) -> [[String: Any]] {
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        return chain.map { certificate in
            [
                "subject": SecCertificateCopySubjectSummary(certificate).map { $0 as String } ?? "",
                "sha1": CertificateFingerprint.sha1Hex(certificate),
            ]
        }
    }
}
