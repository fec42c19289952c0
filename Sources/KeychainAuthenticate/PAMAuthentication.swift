import PAMSession

/// Authenticates `user` with the PAM stack of `options.service`, asking through `conversation`.
func authenticateWithPAM(_ options: Options, user: String, conversation: PAMConversation) -> Outcome {
    let result = authenticateWithPAM(
        service: options.service, user: user, serviceDirectory: options.serviceDirectory,
        terminal: options.relays ? nil : options.terminal, conversation: conversation)
    switch result {
    case .authenticated:
        return .authenticated
    case .canceled:
        return .canceled
    case .refused(let explanation):
        report("keychain-authenticate: \(explanation)\n")
        return .notAuthenticated
    case .unavailable(let explanation):
        report("keychain-authenticate: \(explanation)\n")
        return .unavailable
    }
}
