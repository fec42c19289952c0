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
