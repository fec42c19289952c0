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
