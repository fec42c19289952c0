/// `show-keychain-info [--json]`: lock state, passcode, grace period, KDF cost and wrong-attempt state.
public struct ShowKeychainInfoCommand: Equatable, Sendable {
    /// `--json`: one JSON object for scripts instead of the text form.
    public var json: Bool

    public init(json: Bool = false) {
        self.json = json
    }
}
