import Foundation

@_implementationOnly import COpenSSL

/// What a stapled OCSP response says of one certificate.
package struct OCSPAnswer: Sendable, Equatable {
    /// Whether the certificate is revoked (else it is good).
    package let isRevoked: Bool
    /// Until when the answer holds (the response's nextUpdate), when it says.
    package let validUntil: Date?
}

/// Stapled OCSP responses (RFC 6960), as a TLS server hands them over and `SecTrustSetOCSPResponse` receives them,
/// checked with OpenSSL without any network access.
package enum OCSPStaple {
    /// How far the response's times may be off the evaluation's date.
    static let clockSkew: TimeInterval = 300
    /// How long a response without a nextUpdate holds after its thisUpdate.
    static let lifetimeWithoutNextUpdate: TimeInterval = 24 * 3600

    /// The answer of the first response that is well formed, signed by `issuer` or by a responder `issuer`
    /// authorized (its certificate in the response, issued by `issuer` for OCSP signing, valid at `date`), names
    /// `certificate`, is current at `date`, and says good or revoked; nil when no response is all of these, as if
    /// none had been given. "Unknown" (the responder does not know the certificate) answers nothing.
    /// - Parameter anchor: the root of the verified chain, for a delegated responder's chain.
    package static func answer(
        for certificate: X509Certificate, issuer: X509Certificate, anchor: X509Certificate,
        responses: [[UInt8]], at date: Date
    ) -> OCSPAnswer? {
        defer { OpenSSLEncoding.clearErrors() }
        for response in responses {
            if let answer = answer(in: response, for: certificate, issuer: issuer, anchor: anchor, at: date) {
                return answer
            }
        }
        return nil
    }

    private static func answer(
        in der: [UInt8], for certificate: X509Certificate, issuer: X509Certificate, anchor: X509Certificate,
        at date: Date
    ) -> OCSPAnswer? {
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_OCSP_RESPONSE(nil, &cursor, buffer.count)
        }
        guard let response = parsed else { return nil }
        defer { OCSP_RESPONSE_free(response) }
        guard OCSP_response_status(response) == OCSP_RESPONSE_STATUS_SUCCESSFUL,
            let basic = OCSP_response_get1_basic(response)
        else { return nil }
        defer { OCSP_BASICRESP_free(basic) }
        guard verify(basic, issuer: issuer, anchor: anchor, at: date),
            let id = OCSP_cert_to_id(nil, certificate.handle, issuer.handle)
        else { return nil }
        defer { OCSP_CERTID_free(id) }
        var status: Int32 = -1
        var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        guard OCSP_resp_find_status(basic, id, &status, nil, nil, &thisUpdate, &nextUpdate) == 1,
            let issued = CertificateFields.date(UnsafePointer(thisUpdate))
        else { return nil }
        let until = CertificateFields.date(UnsafePointer(nextUpdate))
        let expires = until ?? issued.addingTimeInterval(lifetimeWithoutNextUpdate)
        guard issued.timeIntervalSince(date) <= clockSkew, date.timeIntervalSince(expires) <= clockSkew else {
            return nil
        }
        switch status {
        case V_OCSP_CERTSTATUS_GOOD: return OCSPAnswer(isRevoked: false, validUntil: until)
        case V_OCSP_CERTSTATUS_REVOKED: return OCSPAnswer(isRevoked: true, validUntil: until)
        default: return nil
        }
    }

    /// Whether the response's signature is the issuer's, or a responder's the issuer authorized.
    private static func verify(
        _ basic: OpaquePointer, issuer: X509Certificate, anchor: X509Certificate, at date: Date
    ) -> Bool {
        guard let store = X509_STORE_new() else { return false }
        defer { X509_STORE_free(store) }
        _ = X509_STORE_add_cert(store, anchor.handle)
        X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store), date.opensslTime)
        guard let trusted = kossl_x509_stack_new() else { return false }
        defer { kossl_x509_stack_free(trusted) }
        _ = kossl_x509_stack_push(trusted, issuer.handle)
        // The issuer was verified with the chain, so a response it signed is trusted as is (OCSP_TRUSTOTHER); a
        // delegated responder is verified up to the chain's anchor and must be the issuer's, for OCSP signing.
        // The anchor was chosen by the caller's trust settings, so it needs no OCSP trust setting of its own.
        let flags = UInt(OCSP_TRUSTOTHER) | UInt(OCSP_NOEXPLICIT)
        return OCSP_basic_verify(basic, trusted, store, flags) == 1
    }
}
