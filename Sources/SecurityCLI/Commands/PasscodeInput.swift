/// Where a keychain passcode or backup password comes from.
public enum PasscodeInput: Equatable, Sendable {
    /// Asked for at the terminal without echo, or read as one line of a standard input that is not a terminal.
    case prompt
    /// Given on the command line (`-p`, `-o`), visible to other processes; accepted with a warning.
    case commandLine(CommandLineSecret)
}
