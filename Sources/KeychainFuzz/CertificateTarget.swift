import Foundation
import Security
import X509Certificates

/// Certificates as an app receives them (from a server, a file, a QR code): `SecCertificateCreateWithData` of the
/// input, and for a certificate it accepts every accessor, its key, its item attributes and a trust evaluation
/// with itself as the anchor. The hand-written DER code (DERReader, DistinguishedName) also reads the input
/// directly.
extension FuzzTarget {
    static let certificate = FuzzTarget(
        name: "certificate",
        summary: "SecCertificateCreateWithData of the input, every accessor, its key and a trust evaluation"
    ) { bytes in
        DERFuzzing.walk(bytes[...], depth: 0)
        _ = DistinguishedName(der: bytes).normalizedSequence.map(DERFuzzing.checkNormalized)
        guard let certificate = SecCertificateCreateWithData(nil, Data(bytes) as CFData) else {
            fuzzNote("refused")
            return
        }
        let own = Array(SecCertificateCopyData(certificate) as Data)
        fuzzCheck(!own.isEmpty && bytes.starts(with: own), "a certificate's data does not begin its input")
        CertificateFuzzing.exercise(certificate)
    }
}

enum CertificateFuzzing {
    /// Every accessor of `certificate`, with what must hold between them.
    static func exercise(_ certificate: SecCertificate) {
        let der = SecCertificateCopyData(certificate) as Data
        guard let again = SecCertificateCreateWithData(nil, der as CFData) else {
            fuzzCheck(false, "a certificate's own data is refused")
            return
        }
        fuzzCheck(again == certificate && again.hashValue == certificate.hashValue, "a certificate is not its copy")
        let summary = SecCertificateCopySubjectSummary(certificate)
        fuzzNote("accepted: \(certificate) summary \(summary.map { "\($0)" } ?? "none")")
        var commonName: CFString?
        let status = SecCertificateCopyCommonName(certificate, &commonName)
        fuzzCheck((status == errSecSuccess) == (commonName != nil), "SecCertificateCopyCommonName: \(status)")
        var emails: CFArray?
        fuzzCheck(SecCertificateCopyEmailAddresses(certificate, &emails) == errSecSuccess, "no e-mail array")
        fuzzCheck(emails != nil, "SecCertificateCopyEmailAddresses gave nil")
        var error: Unmanaged<CFError>?
        let serial = SecCertificateCopySerialNumberData(certificate, &error)
        fuzzCheck(serial.map { ($0 as Data).isEmpty } == false, "a certificate without a serial number")
        for name in [
            SecCertificateCopyNormalizedIssuerSequence(certificate),
            SecCertificateCopyNormalizedSubjectSequence(certificate),
        ] {
            if let name { DERFuzzing.checkNormalized(Array(name as Data)) }
        }
        _ = certificate.itemAttributes?.dictionary
        if let key = SecCertificateCopyKey(certificate) {
            KeyFuzzing.checkPublicKeyRoundTrip(key)
        }
        evaluateTrust(certificate)
    }

    /// The certificate anchored on itself, for the SSL and basic policies, a minute into its validity.
    private static func evaluateTrust(_ certificate: SecCertificate) {
        var trust: SecTrust?
        let policies = [SecPolicyCreateBasicX509(), SecPolicyCreateSSL(true, "fuzz.example.com" as CFString)]
        guard SecTrustCreateWithCertificates(certificate, policies as CFArray, &trust) == errSecSuccess,
            let trust
        else {
            fuzzCheck(false, "SecTrustCreateWithCertificates refused a certificate")
            return
        }
        fuzzCheck(SecTrustSetAnchorCertificates(trust, [certificate] as CFArray) == errSecSuccess, "anchors refused")
        _ = SecTrustSetVerifyDate(trust, certificate.x509.notBefore.addingTimeInterval(60) as CFDate)
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        fuzzCheck(trusted == (error == nil), "an evaluation's result and error disagree")
        fuzzNote("trusted: \(trusted) \(error.map { "\($0)" } ?? "")")
        let count = SecTrustGetCertificateCount(trust)
        let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate] ?? []
        fuzzCheck(count == chain.count && count >= 1, "a chain of \(count) certificates")
        var result = SecTrustResultType.invalid
        _ = SecTrustGetTrustResult(trust, &result)
        // A failure is fatal only for what Apple's checks call fatal, a broken key or signature hash, whose codes
        // (shared with the SSL server policy's recoverable key size and SHA-1 checks) lead the error then.
        let brokenKeyOrHash = [Int(errSecUnsupportedKeySize), Int(errSecInvalidDigestAlgorithm)]
            .contains((error as NSError?)?.code ?? 0)
        var expected: Set<SecTrustResultType> = trusted ? [.unspecified] : [.recoverableTrustFailure]
        if !trusted && brokenKeyOrHash { expected.insert(.fatalTrustFailure) }
        fuzzCheck(expected.contains(result), "SecTrustGetTrustResult: \(result)")
        _ = SecTrustCopyKey(trust)
        // A second evaluation with the system's anchors as well, at the current date and without a host name.
        _ = SecTrustSetAnchorCertificatesOnly(trust, false)
        _ = SecTrustSetPolicies(trust, SecPolicyCreateBasicX509())
        _ = SecTrustEvaluateWithError(trust, nil)
    }
}

/// Checks on the hand-written DER reader and the name normalizer.
enum DERFuzzing {
    /// Reads every element of `bytes`, and of the constructed ones inside, checking that each re-encodes to the
    /// bytes it was read from (the reader accepts only DER, whose encoding is unique).
    static func walk(_ bytes: ArraySlice<UInt8>, depth: Int) {
        var reader = DERReader(bytes)
        while !reader.isAtEnd, let element = reader.next() {
            fuzzCheck(
                DERReader.encode(tag: element.tag, content: Array(element.content)) == Array(element.encoding),
                "a DER element does not re-encode to its bytes")
            if element.tag & 0x20 != 0, depth < 16 { walk(element.content, depth: depth + 1) }
        }
    }

    /// A normalized name normalizes to itself.
    static func checkNormalized(_ sequence: [UInt8]) {
        fuzzCheck(
            DistinguishedName(der: sequence).normalizedSequence == sequence, "a normalized name is not a fixed point")
    }
}
