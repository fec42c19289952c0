extension ClassSchema {
    /// `kSecClassGenericPassword` (`genp`): a secret for a service and an account.
    static let genericPassword = ClassSchema(
        itemClass: .genericPassword,
        attributes: sharedPasswordAttributes.merging([.account: .text, .service: .text, .generic: .data]) { $1 },
        primaryKey: [.account, .service],
        valueKind: .secret, backsUp: true,
        relatedClass: RelatedClass(itemClass: .internetPassword, renames: [.service: .server]))
}
