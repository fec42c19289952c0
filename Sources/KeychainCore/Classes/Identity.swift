extension ClassSchema {
    /// `kSecClassIdentity` (`idnt`): not stored. An identity is a certificate item joined with the private key
    /// item whose application label (`klbl`) is the certificate's public key hash (`pkhh`), both in the caller's
    /// groups. It answers to the attributes of both classes; its primary key, like its persistent reference,
    /// is its certificate's, since a certificate has exactly one key (Apple, "Storing an Identity in the
    /// Keychain").
    static let identity = ClassSchema(
        itemClass: .identity,
        attributes: ClassSchema.key.attributes.merging(ClassSchema.certificate.attributes) { _, certificate in
            certificate
        },
        primaryKey: ClassSchema.certificate.primaryKey,
        valueKind: .identity, backsUp: true,
        describesValue: ClassSchema.certificate.describesValue.union(ClassSchema.key.describesValue),
        join: JoinedClasses(
            primary: .certificate, partner: .key, primaryAttribute: .publicKeyHash,
            partnerAttribute: .applicationLabel, partnerConditions: [.keyClass: .number(1)]))
}
