import Foundation
import KeychainCore
import X509Certificates

/// An X.509 certificate, made from its DER by `SecCertificateCreateWithData`.
///
/// Two certificates are equal when their DER is (as `CFEqual` compares them on Apple platforms).
public final class SecCertificate: Hashable, CustomStringConvertible, @unchecked Sendable {  // safe: immutable
    package let x509: X509Certificate

    package init(x509: X509Certificate) { self.x509 = x509 }

    public static func == (lhs: SecCertificate, rhs: SecCertificate) -> Bool { lhs.x509.der == rhs.x509.der }
    public func hash(into hasher: inout Hasher) { hasher.combine(x509.der) }

    public var description: String { "<cert s: \(subjectSummary ?? "")>" }

    /// Apple's summary of the subject (`SecCertificateCopySubjectSummary`).
    var subjectSummary: String? { x509.subjectSummary }

    /// The DER of the SubjectPublicKeyInfo, for `SecCertificateCopyKey` (which builds the `SecKey`).
    package var subjectPublicKeyInfo: [UInt8] { x509.subjectPublicKeyInfo }
}

extension X509Certificate {
    /// Apple's summary of the subject (Security's SecCertificate.c): the values of the subject attributes of the
    /// best type present, common name first, then organizational unit, organization and any other, latest first
    /// and joined with ", ". After common names come the description attributes in parentheses, joined the same
    /// way. Without a common name, the certificate's first e-mail address (its alternative names', then its
    /// subject's) wins over that, then its first DNS name.
    var subjectSummary: String? {
        func rank(_ kind: NameAttribute.Kind) -> Int {
            switch kind {
            case .commonName: 3
            case .organizationalUnit: 2
            case .organization: 1
            default: 0
            }
        }
        func joined(_ values: [String]) -> String? { values.isEmpty ? nil : values.reversed().joined(separator: ", ") }
        let best = subjectAttributes.map { rank($0.kind) }.max()
        var summary = best.flatMap { best in
            joined(subjectAttributes.filter { rank($0.kind) == best }.map(\.value))
        }
        guard best == 3 else { return emailAddresses.first ?? dnsNames.first ?? summary }
        if let description = joined(subjectAttributes.filter { $0.kind == .description }.map(\.value)) {
            summary = summary.map { "\($0) (\(description))" }
        }
        return summary
    }
}

/// The type identifier of `SecCertificate`.
public func SecCertificateGetTypeID() -> CFTypeID { SecTypeIdentifiers.certificate }

/// Creates a certificate from its DER encoding.
/// - Parameters:
///   - allocator: nil or `kCFAllocatorDefault`.
///   - data: a DER-encoded X.509 certificate; PEM or other bytes give nil. Bytes after the certificate are ignored,
///     as Apple's SecCertificateParse keeps the first DER element alone.
/// - Returns: the certificate, or nil when `data` does not begin with one DER certificate.
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    guard let x509 = try? X509Certificate(der: Data(referencing: data), ignoringTrailingBytes: true) else {
        return nil
    }
    return SecCertificate(x509: x509)
}

/// The DER encoding of a certificate.
/// - Parameter certificate: the certificate.
/// - Returns: the certificate's own bytes (without any that followed them in the data it was created from).
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
    Data(certificate.x509.der) as NSData
}

/// A human-readable summary of a certificate's subject (the text comes from the certificate, in its language).
/// - Parameter certificate: the certificate.
/// - Returns: the subject's common names, latest first, joined with ", " (with its descriptions in parentheses);
///   without one, the certificate's first e-mail address, else its first DNS name, else the organizational units,
///   else the organizations, else the other attributes, joined the same way; nil when there is none of these.
public func SecCertificateCopySubjectSummary(_ certificate: SecCertificate) -> CFString? {
    certificate.subjectSummary.map { $0 as NSString }
}

/// The common name of a certificate's subject (the last one when there are several, as Apple returns).
/// - Parameters:
///   - certificate: the certificate.
///   - commonName: receives the common name.
/// - Returns: `errSecSuccess`, or -26276 (Apple's `errSecInternal`) when the subject has no common name.
public func SecCertificateCopyCommonName(
    _ certificate: SecCertificate, _ commonName: UnsafeMutablePointer<CFString?>
) -> OSStatus {
    guard let name = certificate.x509.commonNames.last else { return SecurityStatus.securityFrameworkInternal }
    commonName.pointee = name as NSString
    return errSecSuccess
}

/// The e-mail addresses of a certificate: its rfc822Name subject alternative names, then the emailAddress
/// attributes of its subject.
/// - Parameters:
///   - certificate: the certificate.
///   - emailAddresses: receives an array of strings, empty when there is none.
/// - Returns: `errSecSuccess`.
public func SecCertificateCopyEmailAddresses(
    _ certificate: SecCertificate, _ emailAddresses: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    emailAddresses.pointee = certificate.x509.emailAddresses.map { $0 as NSString } as NSArray
    return errSecSuccess
}

/// The serial number of a certificate: the content octets of its DER INTEGER (big-endian, two's complement).
/// - Parameters:
///   - certificate: the certificate.
///   - error: receives nothing: every certificate that parsed has a serial number.
/// - Returns: the serial number.
public func SecCertificateCopySerialNumberData(
    _ certificate: SecCertificate, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    Data(certificate.x509.serialNumber) as NSData
}

/// The serial number of a certificate, as iOS 10.3 declared it (without an error parameter, unlike macOS's).
/// - Parameter certificate: the certificate.
/// - Returns: the content octets of its DER INTEGER.
@available(*, deprecated, renamed: "SecCertificateCopySerialNumberData(_:_:)")
public func SecCertificateCopySerialNumber(_ certificate: SecCertificate) -> CFData? {
    SecCertificateCopySerialNumberData(certificate, nil)
}

/// The issuer's distinguished name, normalized as Apple does (PrintableString values upper-cased with blanks
/// collapsed), as a DER SEQUENCE.
/// - Parameter certificate: the certificate.
/// - Returns: the normalized name, or nil when the issuer name does not parse.
public func SecCertificateCopyNormalizedIssuerSequence(_ certificate: SecCertificate) -> CFData? {
    certificate.x509.issuer.normalizedSequence.map { Data($0) as NSData }
}

/// The subject's distinguished name, normalized as Apple does, as a DER SEQUENCE.
/// - Parameter certificate: the certificate.
/// - Returns: the normalized name, or nil when the subject name does not parse.
public func SecCertificateCopyNormalizedSubjectSequence(_ certificate: SecCertificate) -> CFData? {
    certificate.x509.subject.normalizedSequence.map { Data($0) as NSData }
}

/// The start of a certificate's validity period, its `notBefore` (iOS 18, macOS 15).
/// - Parameter certificate: the certificate.
/// - Returns: the date; every certificate that parsed has one.
public func SecCertificateCopyNotValidBeforeDate(_ certificate: SecCertificate) -> CFDate? {
    certificate.x509.notBefore as NSDate
}

/// The end of a certificate's validity period, its `notAfter` (iOS 18, macOS 15).
/// - Parameter certificate: the certificate.
/// - Returns: the date; every certificate that parsed has one.
public func SecCertificateCopyNotValidAfterDate(_ certificate: SecCertificate) -> CFDate? {
    certificate.x509.notAfter as NSDate
}
