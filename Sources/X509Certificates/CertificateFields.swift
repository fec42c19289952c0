import Foundation

@_implementationOnly import COpenSSL

/// Reads the fields of a parsed `X509` once, so that `X509Certificate` holds plain Swift values.
struct CertificateFields {
    let version: Int
    let subject: DistinguishedName
    let issuer: DistinguishedName
    let serialNumber: [UInt8]
    let subjectAttributes: [NameAttribute]
    let dnsNames: [String]
    let emailAddresses: [String]
    let subjectKeyIdentifier: [UInt8]?
    let subjectPublicKeyInfo: [UInt8]
    let publicKeyExternalRepresentation: [UInt8]?
    let notBefore: Date
    let notAfter: Date
    let extensions: CertificateExtensions

    init(_ certificate: OpaquePointer) throws(X509Error) {
        version = Int(X509_get_version(certificate)) + 1
        guard let subjectName = X509_get_subject_name(certificate),
            let subjectDER = OpenSSLEncoding.der({ i2d_X509_NAME(subjectName, $0) }),
            let issuerName = X509_get_issuer_name(certificate),
            let issuerDER = OpenSSLEncoding.der({ i2d_X509_NAME(issuerName, $0) })
        else { throw .malformed("the certificate's names do not encode") }
        subject = DistinguishedName(der: subjectDER)
        issuer = DistinguishedName(der: issuerDER)

        guard let serial = X509_get0_serialNumber(certificate),
            let serialDER = OpenSSLEncoding.der({ i2d_ASN1_INTEGER(serial, $0) })
        else { throw .malformed("the certificate has no serial number") }
        var reader = DERReader(serialDER[...])
        guard let integer = reader.next(), !integer.content.isEmpty else {
            throw .malformed("the certificate's serial number does not encode")
        }
        serialNumber = Array(integer.content)

        subjectAttributes = Self.attributes(of: subjectName)
        let alternativeNames = Self.alternativeNames(of: certificate)
        dnsNames = alternativeNames.dns
        emailAddresses =
            alternativeNames.email
            + subjectAttributes.filter { $0.kind == .emailAddress }.map(\.value)
        subjectKeyIdentifier = OpenSSLEncoding.bytes(of: X509_get0_subject_key_id(certificate))

        guard let publicKeyInfo = X509_get_X509_PUBKEY(certificate),
            let spki = OpenSSLEncoding.der({ i2d_X509_PUBKEY(publicKeyInfo, $0) })
        else { throw .malformed("the certificate's public key does not encode") }
        subjectPublicKeyInfo = spki
        publicKeyExternalRepresentation = Self.externalRepresentation(of: certificate)

        guard let start = Self.date(X509_get0_notBefore(certificate)),
            let end = Self.date(X509_get0_notAfter(certificate))
        else { throw .malformed("the certificate's validity dates do not parse") }
        notBefore = start
        notAfter = end
        extensions = Self.extensions(of: certificate)
    }

    private static func attributes(of name: OpaquePointer) -> [NameAttribute] {
        (0..<X509_NAME_entry_count(name)).compactMap { index in
            guard let entry = X509_NAME_get_entry(name, index),
                let value = OpenSSLEncoding.text(of: X509_NAME_ENTRY_get_data(entry))
            else { return nil }
            let kind: NameAttribute.Kind =
                switch OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry)) {
                case NID_commonName: .commonName
                case NID_pkcs9_emailAddress: .emailAddress
                case NID_organizationName: .organization
                case NID_organizationalUnitName: .organizationalUnit
                case NID_countryName: .country
                case NID_description: .description
                default: .other
                }
            return NameAttribute(kind: kind, value: value)
        }
    }

    private static func alternativeNames(of certificate: OpaquePointer) -> (dns: [String], email: [String]) {
        guard let raw = X509_get_ext_d2i(certificate, NID_subject_alt_name, nil, nil) else {
            OpenSSLEncoding.clearErrors()
            return ([], [])
        }
        let names = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(names) }
        var dns: [String] = []
        var email: [String] = []
        for index in 0..<kossl_general_names_count(names) {
            guard let name = kossl_general_names_value(names, index),
                let bytes = OpenSSLEncoding.bytes(of: kossl_general_name_string(name))
            else { continue }
            switch kossl_general_name_type(name) {
            case GEN_DNS: dns.append(String(decoding: bytes, as: UTF8.self))
            case GEN_EMAIL: email.append(String(decoding: bytes, as: UTF8.self))
            default: break
            }
        }
        return (dns, email)
    }

    private static func externalRepresentation(of certificate: OpaquePointer) -> [UInt8]? {
        guard let key = X509_get0_pubkey(certificate) else {
            OpenSSLEncoding.clearErrors()
            return nil
        }
        let type = EVP_PKEY_get_base_id(key)
        guard type == EVP_PKEY_EC || type == EVP_PKEY_RSA else { return nil }
        // i2d_PublicKey gives the EC point (in the form the certificate carries it) or RSAPublicKey DER.
        return OpenSSLEncoding.der { i2d_PublicKey(key, $0) }
    }

    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    private static func extensions(of certificate: OpaquePointer) -> CertificateExtensions {
        let flags = X509_get_extension_flags(certificate)
        let keyUsage = flags & UInt32(EXFLAG_KUSAGE) != 0 ? X509_get_key_usage(certificate) : nil
        var extendedKeyUsage: ExtendedKeyUsage?
        if flags & UInt32(EXFLAG_XKUSAGE) != 0 {
            let purposes = X509_get_extended_key_usage(certificate)
            extendedKeyUsage = ExtendedKeyUsage(
                serverAuthentication: purposes & UInt32(XKU_SSL_SERVER) != 0,
                clientAuthentication: purposes & UInt32(XKU_SSL_CLIENT) != 0,
                serverGatedCryptography: purposes & UInt32(XKU_SGC) != 0,
                any: purposes & UInt32(XKU_ANYEKU) != 0,
                count: Int(max(0, kossl_extended_key_usage_count(certificate))))
            OpenSSLEncoding.clearErrors()
        }
        return CertificateExtensions(
            isCertificateAuthority: flags & UInt32(EXFLAG_CA) != 0,
            hasBasicConstraints: flags & UInt32(EXFLAG_BCONS) != 0, keyUsage: keyUsage,
            extendedKeyUsage: extendedKeyUsage)
    }
}
