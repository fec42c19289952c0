import X509Certificates

extension SecDictionary {
    /// `kSecAttrIssuer` as Apple's client sends it on (`SecItem.m`, `SecItemAttributesPrepare`): when the bytes
    /// begin with a DER SEQUENCE that is a name, that name normalized without its header, the form a certificate
    /// item keeps in `issr`; anything else as given. It applies to every query and attribute dictionary, so code
    /// that passes a certificate's own issuer finds the certificate. The subject is not normalized there.
    static func issuerAsSent(_ bytes: [UInt8]) -> [UInt8] {
        // Apple decodes only the first element; bytes after it are not looked at.
        var reader = DERReader(bytes[...])
        guard let first = reader.next(), first.tag == 0x30,
            let normalized = DistinguishedName(der: Array(first.encoding)).normalizedContent
        else { return bytes }
        return normalized
    }
}
