/// How much the command says, and in which form: the global `-q`, `-v` and `--json`.
public struct OutputOptions: Equatable, Sendable {
    /// `-q`: only macOS's one-line error message, without the keychain's reason or warnings' details.
    public var quiet: Bool
    /// `-v`: also the status code and exit code of a failure.
    public var verbose: Bool
    /// `--json` (before or after the verb): structured output for scripts.
    public var json: Bool
    /// `-p PROMPT`: the prompt of `-i` at a terminal (default `security> `).
    public var prompt: String?
    /// `-l`: macOS runs `leaks` before exiting; accepted here with a warning.
    public var leaksRequested: Bool

    public init(
        quiet: Bool = false, verbose: Bool = false, json: Bool = false, prompt: String? = nil,
        leaksRequested: Bool = false
    ) {
        self.quiet = quiet
        self.verbose = verbose
        self.json = json
        self.prompt = prompt
        self.leaksRequested = leaksRequested
    }
}
