extension ClassSchema {
    /// `kSecClassCertificate` (`cert`): an X.509 certificate, its value the DER bytes. The attributes are derived
    /// from the certificate; Apple's table keys on the type, issuer and serial number with the group and sync.
    static let certificate = ClassSchema(
        itemClass: .certificate,
        attributes: [
            .certificateType: .number, .certificateEncoding: .number, .label: .text, .alias: .text, .subject: .data,
            .issuer: .data, .serialNumber: .data, .subjectKeyID: .data, .publicKeyHash: .data,
            .creationDate: .date, .modificationDate: .date,
        ],
        primaryKey: [.certificateType, .issuer, .serialNumber],
        valueKind: .certificate, backsUp: true,
        describesValue: [
            .certificateType, .certificateEncoding, .subject, .issuer, .serialNumber, .subjectKeyID,
            .publicKeyHash,
        ])
}
