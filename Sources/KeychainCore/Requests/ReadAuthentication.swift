/// What a keychain call may do when an item needs user authentication (`kSecUseAuthenticationUI`).
public enum AuthenticationUI: Sendable, Hashable {
    /// Prompt (the default).
    case allow
    /// Never prompt: errSecInteractionNotAllowed instead.
    case fail
    /// Leave such items out of a search, silently.
    case skip
}

/// The authentication a read may use: the UI policy and the prompt's text. Plain data: the evaluated context
/// (`kSecUseAuthenticationContext`) is not part of a query but an argument of the call (a request names it by
/// id), which the engine puts here for the call's duration.
public struct ReadAuthentication: Sendable {
    /// The call's context, set by the engine from the operation's `context:` argument.
    var context: AuthenticationContext?
    public var ui: AuthenticationUI
    /// Why the app asks, shown by a system prompt (`kSecUseOperationPrompt`).
    public var operationPrompt: String?
    /// Who the prompt names as asking: the caller the engine resolved (keychaind's finding, in daemon mode), set
    /// by the engine with the context; nil for the keychain's own identity.
    var asker: CallerIdentity?

    /// When set, a read that would prompt throws ``PromptDeferred`` instead, so that the caller can release
    /// what it holds (a write transaction), ask, and try again.
    var defersPrompts = false

    public init(ui: AuthenticationUI = .allow, operationPrompt: String? = nil) {
        self.ui = ui
        self.operationPrompt = operationPrompt
    }

    init(context: AuthenticationContext?, ui: AuthenticationUI, operationPrompt: String?, asker: CallerIdentity) {
        self.context = context
        self.ui = ui
        self.operationPrompt = operationPrompt
        self.asker = asker
    }
}

/// Thrown instead of a prompt under ``ReadAuthentication/defersPrompts``.
struct PromptDeferred: Error {}

/// Thrown by a search's result builder for an item whose constraint needs a prompt the call forbids
/// (`kSecUseAuthenticationUIFail`, a context that does not allow interaction), told apart from an item whose class
/// is locked: the search fails whole for it.
struct ConstraintNeedsInteraction: Error {
    let error: KeychainError
    /// The persistent-reference UUID of the matching item it keeps from being read, set by the search.
    var uuid: [UInt8] = []

    /// What the search throws for it: the whole call fails (errSecInteractionNotAllowed), naming the item.
    var searchError: KeychainError {
        KeychainError.interactionNotAllowed.because(
            "matching item \(uuid.hexadecimal) needs authentication for its access control: "
                + "\(error.explanation ?? "")")
    }
}
