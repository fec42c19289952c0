/// `set-keychain-settings -t SECONDS`: how long WhenUnlocked items stay available after `lock-keychain`
/// (macOS's lock timeout; the engine's grace period).
public struct SetKeychainSettingsCommand: Equatable, Sendable {
    /// `-t`: seconds, 0 to `UInt32.max` (macOS's 32-bit lock interval).
    public var gracePeriod: Int

    public init(gracePeriod: Int) {
        self.gracePeriod = gracePeriod
    }
}
