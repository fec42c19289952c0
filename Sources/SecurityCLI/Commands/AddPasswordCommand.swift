import KeychainCore

/// Where a new item's password comes from.
public enum PasswordInput: Equatable, Sendable {
    /// No password option: the item gets an empty secret (or, with `-U`, keeps its secret).
    case none
    /// `-w` as the last argument: ask at the terminal, or read one line from a standard input that is not one.
    case prompt
    /// `-w`/`-p PASSWORD` or `-X HEX` on the command line, visible to other processes.
    case commandLine(CommandLineSecret)
}

/// `add-generic-password` / `add-internet-password`.
public struct AddPasswordCommand: Equatable, Sendable {
    /// `genp` or `inet`.
    public var itemClass: ItemClass
    /// The attributes given on the command line.
    public var attributes: [AttributeKey: AttributeValue]
    public var password: PasswordInput
    /// `-U`: update the item when one with the same primary key exists (update first, then add).
    public var updateIfExists: Bool
    /// `-A` and `-T appPath` as given; access lists of file keychains have no counterpart here.
    public var ignoredAccessOptions: [String]

    public init(
        itemClass: ItemClass, attributes: [AttributeKey: AttributeValue] = [:], password: PasswordInput = .none,
        updateIfExists: Bool = false, ignoredAccessOptions: [String] = []
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.password = password
        self.updateIfExists = updateIfExists
        self.ignoredAccessOptions = ignoredAccessOptions
    }

    /// The attributes a new item gets, with macOS's defaults: the label defaults to the service (or server),
    /// and an internet password's authentication type to "dflt".
    public var newItemAttributes: [AttributeKey: AttributeValue] {
        var attributes = self.attributes
        let labelSource: AttributeKey = itemClass == .internetPassword ? .server : .service
        if attributes[.label] == nil, let source = attributes[labelSource] {
            attributes[.label] = source
        }
        if itemClass == .internetPassword, attributes[.authenticationType] == nil {
            attributes[.authenticationType] = .string("dflt")
        }
        return attributes
    }
}
