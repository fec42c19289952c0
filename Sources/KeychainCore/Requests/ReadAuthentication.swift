/// What a keychain call may do when an item needs user authentication (`kSecUseAuthenticationUI`).
public enum AuthenticationUI: Sendable, Hashable {
    /// Prompt (the default).
    case allow
    /// Never prompt: errSecInteractionNotAllowed instead.
    case fail
    /// Leave such items out of a search, silently.
    case skip
}

/// The authentication a read may use: an evaluated context (`kSecUseAuthenticationContext`) and the UI policy.
public struct ReadAuthentication: Sendable {
    public var context: AuthenticationContext?
    public var ui: AuthenticationUI
    /// Why the app asks, shown by a system prompt (`kSecUseOperationPrompt`).
    public var operationPrompt: String?

    public init(context: AuthenticationContext? = nil, ui: AuthenticationUI = .allow, operationPrompt: String? = nil) {
        self.context = context
        self.ui = ui
        self.operationPrompt = operationPrompt
    }
}
