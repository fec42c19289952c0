import KeychainMessages

/// A command line that cannot be run as written. The runner prints the message and, unless it explains itself
/// in its one line, the verb's usage to standard error, and exits with `EX_USAGE` (64).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, from the message catalog.
    public let catalogMessage: UsageMessage
    /// The verb whose usage to show; nil for the general usage.
    public let verb: SecurityVerb?

    public init(_ message: UsageMessage, verb: SecurityVerb? = nil) {
        catalogMessage = message
        self.verb = verb
    }

    /// What is wrong in English, without the `security: ` prefix.
    public var message: String { catalogMessage.text(in: .english) }

    /// Whether the usage follows the message (not for a macOS verb or operand this keychain does not have: the
    /// one line says what to do instead).
    public var showsUsage: Bool { catalogMessage.showsUsage }

    /// Whether the message line comes before the usage: not for `VERB -h`, which asked for the usage alone.
    var hasMessageLine: Bool { catalogMessage != .usageRequested }

    /// 64 (`EX_USAGE`), but 1 for `help` naming no command, as macOS exits there.
    var exitCode: Int32 {
        if case .helpNoSuchCommand = catalogMessage { return ExitCode.failure }
        return ExitCode.usage
    }

    /// The message in `language`.
    func text(in language: MessageLanguage) -> String { catalogMessage.text(in: language) }

    public var description: String { message }
}
