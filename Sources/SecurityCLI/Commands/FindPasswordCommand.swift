import KeychainCore

/// What `find-…-password` shows of the secret.
public enum PasswordDisplay: Equatable, Sendable {
    /// Attributes only.
    case hidden
    /// `-g`: attributes on standard output, then `password: "…"` on standard error.
    case withAttributes
    /// `-w`: only the password, on standard output.
    case only
}

/// `find-generic-password` / `find-internet-password`: the first item that matches.
public struct FindPasswordCommand: Equatable, Sendable {
    public var itemClass: ItemClass
    /// The attributes an item must have.
    public var attributes: [AttributeKey: AttributeValue]
    public var display: PasswordDisplay

    public init(
        itemClass: ItemClass, attributes: [AttributeKey: AttributeValue] = [:], display: PasswordDisplay = .hidden
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.display = display
    }
}
