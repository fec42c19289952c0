/// `set-keychain-settings [-t SECONDS] [-l] [-u]`: how long WhenUnlocked items stay available after
/// `lock-keychain` (macOS's lock timeout; the engine's grace period).
public struct SetKeychainSettingsCommand: Equatable, Sendable {
    /// `-t`: seconds, 0 to `UInt32.max` (macOS's 32-bit lock interval); nil leaves the grace period as it is.
    public var gracePeriod: Int?
    /// `-l`: lock when the system sleeps, which has no meaning here (a warning says so).
    public var lockOnSleep: Bool

    public init(gracePeriod: Int?, lockOnSleep: Bool = false) {
        self.gracePeriod = gracePeriod
        self.lockOnSleep = lockOnSleep
    }
}
