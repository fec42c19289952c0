import KeychainCrypto

/// A typed add: the class, attributes, protection and secret of a new item.
public struct NewItem: Sendable {
    public var itemClass: ItemClass
    public var attributes: [AttributeKey: AttributeValue]
    /// The access group; nil puts the item in the caller's first group.
    public var accessGroup: String?
    public var synchronizable: Bool
    /// The protection class; nil means the default (or the access control's).
    public var accessibility: Accessibility?
    public var accessControl: AccessControlPolicy?
    /// The value: secret bytes (`kSecValueData`), or a key or certificate (not stored yet).
    public var value: ItemValue?
    /// What to return about the new item, as a search would.
    public var returns: ReturnOptions

    public init(
        itemClass: ItemClass, attributes: [AttributeKey: AttributeValue] = [:], accessGroup: String? = nil,
        synchronizable: Bool = false, accessibility: Accessibility? = nil, accessControl: AccessControlPolicy? = nil,
        data: [UInt8]? = nil, returns: ReturnOptions = []
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessibility = accessibility
        self.accessControl = accessControl
        self.value = data.map { .secret(Secret($0)) }
        self.returns = returns
    }

    /// The secret bytes (`kSecValueData`): a copy of a `.secret` value; nil for none or another kind.
    public var data: [UInt8]? {
        get { value?.secret?.bytes }
        set { value = newValue.map { .secret(Secret($0)) } }
    }
}

/// A typed update: the attributes and secret to change on every matching item.
public struct ItemChanges: Sendable {
    public var attributes: [AttributeKey: AttributeValue]
    public var accessGroup: String?
    public var synchronizable: Bool?
    public var accessibility: Accessibility?
    public var accessControl: AccessControlPolicy?
    /// The new value, when the update replaces it.
    public var value: ItemValue?

    public init(
        attributes: [AttributeKey: AttributeValue] = [:], accessGroup: String? = nil, synchronizable: Bool? = nil,
        accessibility: Accessibility? = nil, accessControl: AccessControlPolicy? = nil, data: [UInt8]? = nil
    ) {
        self.attributes = attributes
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessibility = accessibility
        self.accessControl = accessControl
        self.value = data.map { .secret(Secret($0)) }
    }

    /// The new secret bytes: a copy of a `.secret` value; nil for none or another kind.
    public var data: [UInt8]? {
        get { value?.secret?.bytes }
        set { value = newValue.map { .secret(Secret($0)) } }
    }

    /// Whether the update changes nothing.
    public var isEmpty: Bool {
        attributes.isEmpty && accessGroup == nil && synchronizable == nil && accessibility == nil
            && accessControl == nil && value == nil
    }
}

/// One item as a search returns it: only the parts the caller asked for are filled in.
public struct ItemResult: Sendable {
    public let itemClass: ItemClass
    /// The value, when `.data` was asked for: a secret (in wiped-on-free memory) for the password classes.
    public let value: ItemValue?
    /// Every attribute, including agrp, sync, pdmn, cdat and mdat, when `.attributes` was asked for.
    public let attributes: [AttributeKey: AttributeValue]?
    public let persistentReference: PersistentReference?
    /// The item's access control, decoded, when `.attributes` was asked for and the item has constraints.
    public var accessControl: AccessControlPolicy? = nil

    public init(
        itemClass: ItemClass, value: ItemValue?, attributes: [AttributeKey: AttributeValue]?,
        persistentReference: PersistentReference?, accessControl: AccessControlPolicy? = nil
    ) {
        self.itemClass = itemClass
        self.value = value
        self.attributes = attributes
        self.persistentReference = persistentReference
        self.accessControl = accessControl
    }

    /// The secret of a password item, when `.data` was asked for.
    public var data: Secret? { value?.secret }
}
