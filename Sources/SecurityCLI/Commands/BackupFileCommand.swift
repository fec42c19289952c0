/// `backup-keychain [-p password] FILE` and `restore-keychain [-p password] FILE`: the backup file and the
/// password that protects it.
public struct BackupFileCommand: Equatable, Sendable {
    /// The backup file, as given (relative to the working directory).
    public var file: String
    /// The backup password: asked for, or `-p`.
    public var password: PasscodeInput

    public init(file: String, password: PasscodeInput = .prompt) {
        self.file = file
        self.password = password
    }
}
