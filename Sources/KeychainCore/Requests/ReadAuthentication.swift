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

    /// When set, a read that would prompt throws ``PromptDeferred`` instead, so that the caller can release
    /// what it holds (a write transaction), ask, and try again.
    var defersPrompts = false

    public init(context: AuthenticationContext? = nil, ui: AuthenticationUI = .allow, operationPrompt: String? = nil) {
        self.context = context
        self.ui = ui
        self.operationPrompt = operationPrompt
    }
}

/// Thrown instead of a prompt under ``ReadAuthentication/defersPrompts``.
struct PromptDeferred: Error {}
