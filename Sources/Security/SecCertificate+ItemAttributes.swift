import Foundation
import X509Certificates

/// The attributes Apple derives from a certificate's DER when it stores it as a `kSecClassCertificate` item,
/// keyed by their raw names. Certificate storage uses them as the item's attributes and primary key.
package struct CertificateItemAttributes: Equatable, Sendable {
    /// `ctyp`: the X.509 version as CSSM numbers it (1, 2, 3 for v1, v2, v3).
    package let certificateType: Int
    /// `cenc`: always 3, `CSSM_CERT_ENCODING_DER`.
    package let certificateEncoding: Int
    /// `subj`: the normalized subject name, without its SEQUENCE header.
    package let subject: Data
    /// `issr`: the normalized issuer name, without its SEQUENCE header.
    package let issuer: Data
    /// `slnr`: the serial number's INTEGER content.
    package let serialNumber: Data
    /// `skid`: the subject key identifier extension's octets, when there is one.
    package let subjectKeyID: Data?
    /// `pkhh`: SHA-1 of the public key's external representation (the X9.63 point for EC, the PKCS#1 DER for
    /// RSA), the value a private key item carries as `klbl`.
    package let publicKeyHash: Data?
    /// `labl`: the subject summary. No `alis` is derived: Apple's `SecCertificateCopyAttributeDictionary` has its
    /// e-mail alias under `#if 0` (`SecCertificate.c`).
    package let label: String?

    /// The attributes as Apple's raw keys and values (numbers, data, strings); absent ones are left out.
    package var dictionary: [String: Any] {
        var result: [String: Any] = [
            "ctyp": NSNumber(value: certificateType), "cenc": NSNumber(value: certificateEncoding),
            "subj": subject, "issr": issuer, "slnr": serialNumber,
        ]
        result["skid"] = subjectKeyID
        result["pkhh"] = publicKeyHash
        result["labl"] = label
        return result
    }
}

extension SecCertificate {
    /// The attributes of this certificate as a keychain item, or nil when a name does not normalize (a name
    /// that OpenSSL parsed but whose DER the normalizer refuses, such as an empty relative name).
    package var itemAttributes: CertificateItemAttributes? {
        guard let subject = x509.subject.normalizedContent, let issuer = x509.issuer.normalizedContent else {
            return nil
        }
        return CertificateItemAttributes(
            certificateType: x509.version, certificateEncoding: 3, subject: Data(subject), issuer: Data(issuer),
            serialNumber: Data(x509.serialNumber), subjectKeyID: x509.subjectKeyIdentifier.map { Data($0) },
            publicKeyHash: x509.publicKeyHash.map { Data($0) },
            label: subjectSummary)
    }
}
