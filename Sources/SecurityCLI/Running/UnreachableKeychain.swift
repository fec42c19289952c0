import KeychainCore
import KeychainRequests

/// The keychain of a command whose daemon could not be reached or refused it when asked who the command is:
/// every request fails with that same error. One command then makes one connection and reports one reason; the
/// daemon is not asked again within the few milliseconds a command lives.
struct UnreachableKeychain: KeychainService {
    let failure: KeychainError

    var callerIdentity: CallerIdentity { CallerIdentity(applicationIdentifier: nil, accessGroups: []) }

    func perform(_ request: KeychainRequest, as caller: Caller) throws -> KeychainResponse { throw failure }
}
