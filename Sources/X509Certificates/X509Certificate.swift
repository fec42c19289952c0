import Foundation

@_implementationOnly import COpenSSL

/// A parsed X.509 certificate: the DER it came from and the fields the Security framework reads from it.
///
/// Built only from DER (no PEM); bytes after the certificate are ignored when the caller allows them, as Apple's
/// SecCertificateCreateWithData does. Immutable after init.
package final class X509Certificate: @unchecked Sendable {  // safe: the X509 is only read after init
    let handle: OpaquePointer

    /// The certificate's own bytes: its DER element, without anything that followed it.
    package let der: [UInt8]
    /// 1, 2 or 3.
    package let version: Int
    package let subject: DistinguishedName
    package let issuer: DistinguishedName
    /// The content octets of the serial number's INTEGER (its two's-complement big-endian bytes).
    package let serialNumber: [UInt8]
    /// The subject's attributes in order, as text.
    package let subjectAttributes: [NameAttribute]
    /// dNSName entries of the subject alternative names, in order.
    package let dnsNames: [String]
    /// rfc822Name entries of the subject alternative names, then the subject's emailAddress attributes.
    package let emailAddresses: [String]
    package let subjectKeyIdentifier: [UInt8]?
    /// The DER SubjectPublicKeyInfo.
    package let subjectPublicKeyInfo: [UInt8]
    /// The public key as Apple's `SecKeyCopyExternalRepresentation` gives it: the X9.63 point for EC keys, the
    /// PKCS#1 RSAPublicKey DER for RSA keys; nil for other key types.
    package let publicKeyExternalRepresentation: [UInt8]?
    package let notBefore: Date
    package let notAfter: Date
    package let extensions: CertificateExtensions

    /// Parses `der`.
    /// - Parameter ignoringTrailingBytes: whether bytes after the certificate's DER element are ignored (Apple's
    ///   SecCertificateParse keeps the first element alone) rather than refused.
    /// - Throws: `X509Error.malformed` when the bytes are not one DER certificate (then nothing else).
    package init(der bytes: some Collection<UInt8>, ignoringTrailingBytes: Bool = false) throws(X509Error) {
        var der = Array(bytes)
        guard der.first == 0x30 else { throw .malformed("the data is not a DER certificate (PEM or other bytes)") }
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let certificate = d2i_X509(nil, &cursor, buffer.count)
            consumed = cursor.map { $0 - base } ?? 0
            return certificate
        }
        guard let parsed else {
            OpenSSLEncoding.clearErrors()
            throw .malformed("the data does not parse as an X.509 certificate")
        }
        if consumed < der.count, ignoringTrailingBytes {
            der.removeSubrange(consumed...)
        }
        guard consumed == der.count else {
            X509_free(parsed)
            throw .malformed("the data has \(der.count - consumed) bytes after the certificate")
        }
        // OpenSSL also reads some BER (long-form short lengths…); DER encodes one way, so it must re-encode the same.
        guard OpenSSLEncoding.der({ i2d_X509(parsed, $0) }) == der else {
            X509_free(parsed)
            OpenSSLEncoding.clearErrors()
            throw .malformed("the certificate is not DER (it re-encodes differently)")
        }
        do {
            let fields = try CertificateFields(parsed)
            handle = parsed
            self.der = der
            version = fields.version
            subject = fields.subject
            issuer = fields.issuer
            serialNumber = fields.serialNumber
            subjectAttributes = fields.subjectAttributes
            dnsNames = fields.dnsNames
            emailAddresses = fields.emailAddresses
            subjectKeyIdentifier = fields.subjectKeyIdentifier
            subjectPublicKeyInfo = fields.subjectPublicKeyInfo
            publicKeyExternalRepresentation = fields.publicKeyExternalRepresentation
            notBefore = fields.notBefore
            notAfter = fields.notAfter
            extensions = fields.extensions
        } catch {
            X509_free(parsed)
            OpenSSLEncoding.clearErrors()
            throw error
        }
    }

    deinit { X509_free(handle) }

    /// The values of the subject's commonName attributes, in order.
    package var commonNames: [String] { subjectAttributes.filter { $0.kind == .commonName }.map(\.value) }

    /// The first value of a subject attribute of `kind`.
    package func firstSubjectValue(_ kind: NameAttribute.Kind) -> String? {
        subjectAttributes.first { $0.kind == kind }?.value
    }
}

extension X509Certificate: Equatable {
    package static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool { lhs.der == rhs.der }
}

/// One attribute of a distinguished name.
package struct NameAttribute: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case commonName, emailAddress, organization, organizationalUnit, country, description, other
    }

    package let kind: Kind
    package let value: String
}

/// The extensions trust evaluation looks at.
package struct CertificateExtensions: Sendable, Equatable {
    /// Whether basicConstraints says cA = TRUE.
    package let isCertificateAuthority: Bool
    /// Whether the certificate has a basicConstraints extension at all.
    package let hasBasicConstraints: Bool
    /// The keyUsage bits (KU_… in OpenSSL's numbering), or nil when the extension is absent.
    package let keyUsage: UInt32?
    /// The extendedKeyUsage purposes, or nil when the extension is absent.
    package let extendedKeyUsage: ExtendedKeyUsage?
}

/// The purposes of an extendedKeyUsage extension that TLS cares about.
package struct ExtendedKeyUsage: Sendable, Equatable {
    package let serverAuthentication: Bool
    package let clientAuthentication: Bool
    /// Netscape's or Microsoft's Server Gated Cryptography, which Apple's SSL server policy accepts as serverAuth.
    package let serverGatedCryptography: Bool
    package let any: Bool
    /// How many purposes the extension names, those above and any other.
    package let count: Int

    /// Whether the extension names no purpose at all.
    package var isEmpty: Bool { count == 0 }

    /// Whether the extension allows a TLS server (`server`) or client, as Apple's SSL policies read it: any
    /// purpose, or the role's own (for a server, serverAuth or a Server Gated Cryptography purpose).
    package func allowsTLS(server: Bool) -> Bool {
        any || (server ? serverAuthentication || serverGatedCryptography : clientAuthentication)
    }
}

extension CertificateExtensions {
    package static let digitalSignature: UInt32 = 0x80
    package static let keyEncipherment: UInt32 = 0x20
    package static let keyAgreement: UInt32 = 0x08
    package static let keyCertificateSigning: UInt32 = 0x04
}
