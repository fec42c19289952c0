/// What to ask when a passcode or backup password is read: the prompt, and for a new password the prompt to
/// type it again (at a terminal only; a line of standard input is read once).
public struct PasswordPrompt: Equatable, Sendable {
    /// Shown before the first entry.
    public let text: String
    /// Asked after the first entry when the password is being chosen; nil when it is only checked.
    public let confirmation: String?

    public init(_ text: String, confirmation: String? = nil) {
        self.text = text
        self.confirmation = confirmation
    }

    /// `unlock-keychain`'s prompt, macOS's for the default keychain (the only one here).
    public static let unlock = PasswordPrompt("password to unlock default: ")
    /// `set-keychain-password`'s prompt for the current passcode, as macOS asks it.
    public static let oldPasscode = PasswordPrompt("Old Password: ")
    /// `set-keychain-password`'s prompts for the new passcode, as macOS asks them.
    public static let newPasscode = PasswordPrompt("New Password: ", confirmation: "Retype New Password: ")
    /// `backup-keychain`'s prompts.
    public static let newBackup = PasswordPrompt(
        "password for the backup: ", confirmation: "retype password for the backup: ")
    /// `restore-keychain`'s prompt.
    public static let existingBackup = PasswordPrompt("password of the backup: ")
}
