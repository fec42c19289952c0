/// `set-keychain-password [-o oldPassword] [-p newPassword]`, or `--remove [-o oldPassword]`: sets, changes or
/// removes the passcode.
public struct SetKeychainPasswordCommand: Equatable, Sendable {
    /// The current passcode; asked for only when one is set.
    public var current: PasscodeInput
    /// The new passcode (asked for twice at a terminal); nil with `--remove`.
    public var new: PasscodeInput?

    public init(current: PasscodeInput = .prompt, new: PasscodeInput? = .prompt) {
        self.current = current
        self.new = new
    }
}
