import KeychainCore

/// `delete-generic-password` / `delete-internet-password`: removes the first item that matches, as macOS does.
public struct DeletePasswordCommand: Equatable, Sendable {
    public var itemClass: ItemClass
    /// The attributes an item must have.
    public var attributes: [AttributeKey: AttributeValue]

    public init(itemClass: ItemClass, attributes: [AttributeKey: AttributeValue] = [:]) {
        self.itemClass = itemClass
        self.attributes = attributes
    }
}
