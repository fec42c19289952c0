/// `set-keychain-settings -t SECONDS`: how long WhenUnlocked items stay available after `lock-keychain`
/// (macOS's lock timeout; the engine's grace period).
public struct SetKeychainSettingsCommand: Equatable, Sendable {
    /// `-t`: seconds, 0 or more.
    public var gracePeriod: Int

    public init(gracePeriod: Int) {
        self.gracePeriod = gracePeriod
    }
}
