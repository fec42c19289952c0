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

    /// The number of new secret bytes, without copying them; nil when the secret is not replaced.
    var dataCount: Int? { value?.secret?.count }

    /// Whether the update changes nothing.
    public var isEmpty: Bool {
        attributes.isEmpty && accessGroup == nil && synchronizable == nil && accessibility == nil
            && accessControl == nil && value == nil
    }
}
