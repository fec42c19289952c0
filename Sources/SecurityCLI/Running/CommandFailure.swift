import KeychainCore
import KeychainMessages

/// A failure while running a parsed command, with what macOS's `security` names in its message.
struct CommandFailure: Error {
    /// The macOS call the failing step corresponds to (`SecKeychainSearchCopyNext`), which starts the message.
    let operation: String
    let cause: Cause
    /// Notes that follow the reason: what the user can do about it, in the command's own terms (who the command
    /// searched as and how to act as an app, after a not-found answer).
    var notes: [CommandMessage] = []

    enum Cause {
        case keychain(KeychainError)
        case password(PasswordReadError)
        /// A failure macOS reports by its exit status alone (an add's password prompt given up on).
        case silent
    }

    /// Exits with 1 and prints nothing.
    static let silent = CommandFailure(operation: "", cause: .silent)

    /// A status other than the cause's where macOS's verb exits with its own (`dump-keychain`: 1 for any
    /// failure).
    var exitCodeOverride: Int32?

    private init(operation: String, cause: Cause) {
        self.operation = operation
        self.cause = cause
    }

    init(_ operation: String, _ error: KeychainError) {
        self.operation = operation
        cause = .keychain(error)
    }

    init(_ operation: String, _ error: PasswordReadError) {
        self.operation = operation
        cause = .password(error)
    }

    var exitCode: Int32 {
        if let exitCodeOverride { return exitCodeOverride }
        return switch cause {
        case .keychain(let error): ExitCode.forStatus(error.status)
        case .password(.canceled): ExitCode.forStatus(SecurityStatus.userCanceled)
        case .password(.io): ExitCode.forStatus(SecurityStatus.io)
        case .password(.mismatch), .silent: ExitCode.failure
        }
    }

    /// The lines for standard error: macOS's `security: Operation: message.`, then the engine's explanation
    /// when there is one worth adding. Neither ever holds a secret.
    /// The status text, the engine's reason and the notes are in `language`.
    func messageLines(in language: MessageLanguage = .english) -> [String] {
        switch cause {
        case .keychain(let error):
            let message = StatusMessages.text(for: error.status, english: error.message, in: language)
            var lines = ["security: \(operation): \(message)"]
            if let reason = error.localizedReason(in: language) {
                lines.append("security: \(reason)")
            }
            lines += notes.map { "security: " + $0.text(in: language) }
            return lines
        case .password(let error):
            let message: CommandMessage =
                switch error {
                case .canceled: .noPasswordEntered
                case .mismatch: .passwordsDiffer
                case .io(let number): .passwordUnreadable(errno: number)
                }
            return ["security: \(operation): " + message.text(in: language)]
        case .silent:
            return []
        }
    }
}
