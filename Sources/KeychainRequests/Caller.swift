import KeychainCore

/// Who a request is for: the caller's identity (whose access groups it may use) and the authentication context
/// it names (an `LAContext`, or a query's `kSecUseAuthenticationContext`), by id. Every request takes one.
///
/// In process, the identity is the one the process runs as; a daemon replaces it with what the kernel says
/// about the connection before it reaches the engine.
public struct Caller: Sendable, Hashable {
    public var identity: CallerIdentity
    /// The context whose authentications the request may use and record; nil for none.
    public var authenticationContext: AuthenticationContextID?

    public init(identity: CallerIdentity, authenticationContext: AuthenticationContextID? = nil) {
        self.identity = identity
        self.authenticationContext = authenticationContext
    }

    /// The same caller naming `context` instead.
    public func using(_ context: AuthenticationContextID?) -> Caller {
        Caller(identity: identity, authenticationContext: context)
    }
}
