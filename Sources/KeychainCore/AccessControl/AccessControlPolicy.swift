/// What `SecAccessControlCreateWithFlags` produced: a protection class and constraint flags.
public struct AccessControlPolicy: Sendable, Hashable {
    /// The protection class the access control carries.
    public let accessibility: Accessibility
    /// The flags, with Apple's bit values.
    public let flags: AccessControlFlags

    public init(accessibility: Accessibility, flags: AccessControlFlags) {
        self.accessibility = accessibility
        self.flags = flags
    }

    /// Whether using the item needs user authentication or an application password.
    public var hasConstraints: Bool { !flags.isDisjoint(with: .constraints) }

    /// Whether any flag beyond the protection class is set (the combinators `.or`/`.and` alone do not count).
    public var hasFlags: Bool { !flags.subtracting(.combinators).isEmpty }
}
