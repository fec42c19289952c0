package import KeychainCore
internal import KeychainRequests

extension SecureEnclaveBackends {
    /// Who keeps this task's enclave keys' secrets: the task's keychain, else the service the SecItem functions
    /// use now (keychaind's in daemon mode, else the process's keychain).
    /// - Throws: ``EnclaveError`` with the keychain's status when the process's keychain cannot be opened.
    static func keeper() throws(EnclaveError) -> any EnclaveKeyKeeper {
        try keychainOperation {
            if let installed = ProcessKeychain.taskKeychain { return KeychainEnclaveKeyKeeper(keychain: installed) }
            let service = try ProcessKeychainService.current()
            if let local = service as? InProcessKeychainService {
                return KeychainEnclaveKeyKeeper(keychain: local.keychain)
            }
            return ServiceEnclaveKeyKeeper(client: KeychainClient(service: service))
        }
    }
}
