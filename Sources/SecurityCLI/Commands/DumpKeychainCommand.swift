/// `dump-keychain`: every item the caller can see, generic passwords first.
public struct DumpKeychainCommand: Equatable, Sendable {
    /// `-d`: print each item's secret too.
    public var includeSecrets: Bool

    public init(includeSecrets: Bool = false) {
        self.includeSecrets = includeSecrets
    }
}
