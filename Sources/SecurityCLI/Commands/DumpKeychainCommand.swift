/// `dump-keychain`: every item the caller can see, generic passwords first.
public struct DumpKeychainCommand: Equatable, Sendable {
    /// `-d`: print each item's secret too.
    public var includeSecrets: Bool
    /// `-o FILE`: write the listing to FILE (created, or emptied first, as macOS's `fopen(…, "w")`) instead of
    /// standard output.
    public var outputFile: String?

    public init(includeSecrets: Bool = false, outputFile: String? = nil) {
        self.includeSecrets = includeSecrets
        self.outputFile = outputFile
    }
}
