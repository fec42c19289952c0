import KeychainCore

/// A keychain as its clients see it: one entry point taking a request and the caller it is for. In process it
/// is ``InProcessKeychainService``; a socket client to a daemon implements the same protocol.
public protocol KeychainService: Sendable {
    /// The identity this process is known by to the service (the default caller of the faces).
    var callerIdentity: CallerIdentity { get }

    /// Runs `request` for `caller`.
    /// - Throws: `KeychainError` (and `AuthenticationFailure` for policy evaluations).
    func perform(_ request: KeychainRequest, as caller: Caller) throws -> KeychainResponse
}

extension KeychainService {
    /// The default caller, naming `context`.
    public func caller(context: AuthenticationContextID? = nil) -> Caller {
        Caller(identity: callerIdentity, authenticationContext: context)
    }
}

/// A response that was not the one the request calls for: a broken service, never the caller's fault.
func unexpectedResponse(to request: String) -> KeychainError {
    KeychainError(
        SecurityStatus.internalComponent, reason: "the keychain service answered \(request) with another kind")
}
