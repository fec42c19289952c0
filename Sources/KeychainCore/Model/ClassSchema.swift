/// The kind of value an attribute holds.
public enum AttributeKind: Sendable {
    /// Text; Apple also accepts data here and keeps the type it was given.
    case text
    /// Raw bytes.
    case data
    /// An integer (`CFNumber`), including FourCharCodes.
    case number
    /// A Boolean.
    case boolean
    /// A date set by the engine.
    case date
}

/// One class's table: its attributes, their kinds, and its primary key.
public struct ClassSchema: Sendable {
    public let itemClass: ItemClass
    /// The attributes a caller may set or match, with their kinds (agrp, sync and pdmn are handled apart).
    public let attributes: [AttributeKey: AttributeKind]
    /// The attributes that, with the access group and synchronizable, identify an item.
    public let primaryKey: [AttributeKey]
    /// Attributes that the engine sets and callers may only read or match.
    public let readOnly: Set<AttributeKey>

    /// The schema of `itemClass`, or nil for a class this engine does not store yet.
    public static func of(_ itemClass: ItemClass) -> ClassSchema? {
        switch itemClass {
        case .genericPassword: genericPassword
        case .internetPassword: internetPassword
        default: nil
        }
    }

    private static let shared: [AttributeKey: AttributeKind] = [
        .label: .text, .description: .text, .comment: .text, .creator: .number, .type: .number,
        .isInvisible: .boolean, .isNegative: .boolean, .creationDate: .date, .modificationDate: .date,
    ]

    static let genericPassword = ClassSchema(
        itemClass: .genericPassword,
        attributes: shared.merging([.account: .text, .service: .text, .generic: .data]) { $1 },
        primaryKey: [.account, .service],
        readOnly: [.creationDate, .modificationDate])

    // Apple's inet table keys on these columns with the group and sync (the data protection keychain schema).
    static let internetPassword = ClassSchema(
        itemClass: .internetPassword,
        attributes: shared.merging([
            .account: .text, .server: .text, .securityDomain: .text, .protocol: .text,
            .authenticationType: .text, .port: .number, .path: .text,
        ]) { $1 },
        primaryKey: [.account, .securityDomain, .server, .protocol, .authenticationType, .port, .path],
        readOnly: [.creationDate, .modificationDate])

    /// The value an absent primary-key attribute takes, so absent and empty collide as on Apple's keychain.
    func defaultValue(for key: AttributeKey) -> AttributeValue {
        attributes[key] == .number ? .number(0) : .string("")
    }

    /// Attributes with an index digest column (every attribute but the dates), in a fixed order.
    let indexedAttributes: [AttributeKey]

    init(
        itemClass: ItemClass, attributes: [AttributeKey: AttributeKind], primaryKey: [AttributeKey],
        readOnly: Set<AttributeKey>
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.primaryKey = primaryKey
        self.readOnly = readOnly
        indexedAttributes = attributes.filter { $0.value != .date }.keys.sorted()
    }
}
