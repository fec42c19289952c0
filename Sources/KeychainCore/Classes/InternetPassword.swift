extension ClassSchema {
    /// `kSecClassInternetPassword` (`inet`): a secret for a server, protocol, port and path. Apple's table keys on
    /// these columns with the group and sync (the data protection keychain schema).
    static let internetPassword = ClassSchema(
        itemClass: .internetPassword,
        attributes: sharedPasswordAttributes.merging([
            .account: .text, .server: .text, .securityDomain: .text, .protocol: .text,
            .authenticationType: .text, .port: .number, .path: .text,
        ]) { $1 },
        primaryKey: [.account, .securityDomain, .server, .protocol, .authenticationType, .port, .path],
        valueKind: .secret, backsUp: true,
        relatedClass: RelatedClass(itemClass: .genericPassword, renames: [.server: .service]))
}
