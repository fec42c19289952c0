/// An identity's value: its certificate and its private key. In an add it also carries the attributes each
/// half takes from its object (what `SecItemAdd` derives from a certificate's DER and from a key), since the
/// engine does not parse certificates or keys.
public struct IdentityValue: Sendable {
    public var certificate: CertificateValue
    public var key: KeyValue
    /// The certificate's derived attributes (`ctyp`, `issr`, `slnr`, `pkhh`, `labl`, …); empty in results.
    public var certificateAttributes: [AttributeKey: AttributeValue]
    /// The key's derived attributes (`kcls`, `klbl`, `type`, `bsiz`, usage flags, …); empty in results.
    public var keyAttributes: [AttributeKey: AttributeValue]

    public init(
        certificate: CertificateValue, key: KeyValue, certificateAttributes: [AttributeKey: AttributeValue] = [:],
        keyAttributes: [AttributeKey: AttributeValue] = [:]
    ) {
        self.certificate = certificate
        self.key = key
        self.certificateAttributes = certificateAttributes
        self.keyAttributes = keyAttributes
    }
}
