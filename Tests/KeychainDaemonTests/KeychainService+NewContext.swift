import KeychainCore
import KeychainRequests

extension KeychainService {
    /// A new authentication context of the service's own caller (`LAContext()`), as the service created it.
    func newContext() throws -> AuthenticationContextID {
        guard case .authenticationContext(let id) = try perform(.createAuthenticationContext, as: caller()) else {
            throw DaemonTestError("no context")
        }
        return id
    }
}
