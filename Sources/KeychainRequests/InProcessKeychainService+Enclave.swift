import KeychainCore

extension InProcessKeychainService {
    /// A Secure Enclave key request, run by the installed ``EnclaveKeyServing`` (keychaind's) with the caller's
    /// context.
    /// - Throws: errSecUnimplemented without one: a process with its own keychain never sends these.
    func performEnclaveRequest(_ request: EnclaveKeyRequest, as caller: Caller) throws -> KeychainResponse {
        guard let enclaveKeys else {
            throw KeychainError.unimplemented.because(
                "Secure Enclave key requests are served by keychaind; a process with its own keychain uses its keys "
                    + "itself")
        }
        return try enclaveKeys.perform(
            request, keychain: keychain, context: try optionalContext(caller), caller: caller.identity)
    }
}
