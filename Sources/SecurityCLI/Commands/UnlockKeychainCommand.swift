/// `unlock-keychain [-u] [-p password]`: unlocks with the passcode.
public struct UnlockKeychainCommand: Equatable, Sendable {
    /// The passcode: asked for, or `-p`.
    public var passcode: PasscodeInput

    public init(passcode: PasscodeInput = .prompt) {
        self.passcode = passcode
    }
}
