import Foundation
import KeychainCore

/// An identity as a (joined) keychain item: what an add stores of each half, what a query by reference
/// matches, and the object a result makes.
extension SecIdentity {
    /// The value an add sends: both halves with the attributes each derives from its object.
    /// - Throws: errSecParam when the certificate's names do not normalize; errSecInternalComponent when the
    ///   key cannot be exported.
    func itemValue() throws -> IdentityValue {
        IdentityValue(
            certificate: CertificateValue(derBytes: [UInt8](certificate.x509.der)), key: try privateKey.itemValue(),
            certificateAttributes: try certificate.itemAttributeValues(), keyAttributes: privateKey.itemAttributes)
    }

    /// What a query by `kSecValueRef` matches: the certificate's primary key (an identity is its certificate's).
    func identifyingAttributes() throws -> [AttributeKey: AttributeValue] {
        try certificate.identifyingAttributes()
    }

    /// The identity a result's value holds; nil when either half does not parse.
    convenience init?(itemValue value: IdentityValue) {
        let der = value.certificate.derBytes
        guard let certificate = SecCertificateCreateWithData(nil, NSData(bytes: der, length: der.count)),
            let privateKey = SecKey(foundItemValue: value.key)
        else { return nil }
        self.init(certificate: certificate, privateKey: privateKey)
    }
}
