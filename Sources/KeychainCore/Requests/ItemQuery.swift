/// How many items a search returns.
public enum MatchLimit: Hashable, Sendable {
    case one
    case all
    case count(Int)
}

/// Which items a search sees with respect to `kSecAttrSynchronizable`.
public enum SynchronizableFilter: Hashable, Sendable {
    /// Only items that are not synchronizable (the default when the key is absent).
    case no
    /// Only synchronizable items.
    case yes
    /// Both (`kSecAttrSynchronizableAny`).
    case any
}

/// What a search or an add returns for each item (`kSecReturn…`).
public struct ReturnOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let data = ReturnOptions(rawValue: 1)
    public static let attributes = ReturnOptions(rawValue: 2)
    public static let reference = ReturnOptions(rawValue: 4)
    public static let persistentReference = ReturnOptions(rawValue: 8)
}

/// A typed search: the class, the attributes to match, and the search and return properties.
/// Used by copy, update and delete.
public struct ItemQuery: Sendable {
    /// The table to search; nil only when `persistentReference` names the item.
    public var itemClass: ItemClass?
    /// Attribute values an item must have (absent means "any value").
    public var attributes: [AttributeKey: AttributeValue]
    /// The access group to search; nil searches every group of the caller.
    public var accessGroup: String?
    public var synchronizable: SynchronizableFilter
    /// Only items of this protection class, when set.
    public var accessibility: Accessibility?
    public var limit: MatchLimit
    /// Match string attributes ignoring case (Unicode case folding).
    public var caseInsensitive: Bool
    public var returns: ReturnOptions
    /// Names one item directly.
    public var persistentReference: PersistentReference?
    /// The context and UI policy for items with access-control constraints.
    public var authentication = ReadAuthentication()

    public init(
        itemClass: ItemClass? = nil, attributes: [AttributeKey: AttributeValue] = [:], accessGroup: String? = nil,
        synchronizable: SynchronizableFilter = .no, accessibility: Accessibility? = nil, limit: MatchLimit = .one,
        caseInsensitive: Bool = false, returns: ReturnOptions = [], persistentReference: PersistentReference? = nil
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessibility = accessibility
        self.limit = limit
        self.caseInsensitive = caseInsensitive
        self.returns = returns
        self.persistentReference = persistentReference
    }

    /// A generic password query on service and account, the common case.
    public static func genericPassword(
        service: String, account: String, returns: ReturnOptions = [], limit: MatchLimit = .one
    ) -> ItemQuery {
        ItemQuery(
            itemClass: .genericPassword, attributes: [.service: .string(service), .account: .string(account)],
            limit: limit, returns: returns)
    }
}
