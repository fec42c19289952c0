import Foundation
import KeychainCore

/// A certificate as a keychain item: the attributes Apple derives from its DER, typed for the engine.
extension SecCertificate {
    /// `ctyp`, `cenc`, `subj`, `issr`, `slnr`, `skid`, `pkhh` and `labl` as item attributes.
    /// - Throws: errSecParam when a name of the certificate does not normalize.
    func itemAttributeValues() throws -> [AttributeKey: AttributeValue] {
        guard let derived = itemAttributes else {
            throw KeychainError.param.because("the certificate's subject or issuer name cannot be normalized")
        }
        var attributes: [AttributeKey: AttributeValue] = [
            .certificateType: .number(Int64(derived.certificateType)),
            .certificateEncoding: .number(Int64(derived.certificateEncoding)),
            .subject: .data([UInt8](derived.subject)), .issuer: .data([UInt8](derived.issuer)),
            .serialNumber: .data([UInt8](derived.serialNumber)),
        ]
        if let keyID = derived.subjectKeyID { attributes[.subjectKeyID] = .data([UInt8](keyID)) }
        if let hash = derived.publicKeyHash { attributes[.publicKeyHash] = .data([UInt8](hash)) }
        if let label = derived.label { attributes[.label] = .string(label) }
        return attributes
    }

    /// What a query by `kSecValueRef` matches: Apple's primary key (type, issuer, serial number).
    func identifyingAttributes() throws -> [AttributeKey: AttributeValue] {
        try itemAttributeValues().filter { [.certificateType, .issuer, .serialNumber].contains($0.key) }
    }
}
