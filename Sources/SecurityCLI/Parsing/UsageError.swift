/// A command line that cannot be run as written. The runner prints the message and the verb's usage to
/// standard error and exits with `EX_USAGE` (64).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, without the `security: ` prefix.
    public let message: String
    /// The verb whose usage to show; nil for the general usage.
    public let verb: SecurityVerb?

    public init(_ message: String, verb: SecurityVerb?) {
        self.message = message
        self.verb = verb
    }

    public var description: String { message }
}
