import KeychainMessages

/// A command line that cannot be run as written. The runner prints the message and, unless it explains itself
/// in its one line, the verb's usage to standard error, and exits with `EX_USAGE` (64).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, without the `security: ` prefix, in English.
    public let message: String
    /// The verb whose usage to show; nil for the general usage.
    public let verb: SecurityVerb?
    /// The message as a catalog entry, printed in the user's language; nil for messages kept in English.
    public let catalogMessage: CommandMessage?
    /// Whether the usage follows the message (not for a macOS verb or operand this keychain does not have: the
    /// one line says what to do instead).
    public let showsUsage: Bool

    public init(_ message: String, verb: SecurityVerb?) {
        self.message = message
        self.verb = verb
        catalogMessage = nil
        showsUsage = true
    }

    /// A usage error that is one line from the message catalog, without the usage.
    init(_ message: CommandMessage) {
        self.message = message.text(in: .english)
        verb = nil
        catalogMessage = message
        showsUsage = false
    }

    /// The message in `language`.
    func text(in language: MessageLanguage) -> String { catalogMessage?.text(in: language) ?? message }

    public var description: String { message }
}
