import KeychainCore
import KeychainRequests

extension SecureEnclaveBackends {
    /// The keychain that seals and opens this process's enclave keys' auth values: the task's, else the one the
    /// SecItem functions use in this process.
    /// - Throws: ``EnclaveError`` with the keychain's status when it cannot be opened; errSecInternalComponent in
    ///   daemon mode, where ``remote()`` holds the keys and nothing is sealed here.
    static func sealingKeychain() throws(EnclaveError) -> Keychain {
        try keychainOperation {
            if let installed = ProcessKeychain.taskKeychain { return installed }
            guard let local = try ProcessKeychainService.current() as? InProcessKeychainService else {
                throw EnclaveError.status(
                    -2070, reason: "keychaind holds this process's enclave keys; nothing is sealed in the process")
            }
            return local.keychain
        }
    }

    /// keychaind's enclave, when this task's keychain is the daemon's (no task keychain, and the service the
    /// SecItem functions use is not in process); nil otherwise. Opens no keychain.
    static func remote() -> RemoteEnclave? {
        guard ProcessKeychain.taskKeychain == nil, let service = ProcessKeychainService.outOfProcess else { return nil }
        return RemoteEnclave(client: KeychainClient(service: service))
    }
}
