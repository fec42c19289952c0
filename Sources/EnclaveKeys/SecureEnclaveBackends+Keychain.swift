package import KeychainCore
internal import KeychainRequests

extension SecureEnclaveBackends {
    /// The keychain that seals and opens an enclave key's auth value: the task's, else the process's embedded one.
    /// A process whose keychain is keychaind's gets errSecUnimplemented (-4): the auth values would otherwise be
    /// sealed in a keychain of the process's own, beside the daemon's, which daemon mode promises never to do.
    /// - Throws: ``EnclaveError``.
    static func sealingKeychain() throws(EnclaveError) -> Keychain {
        try keychainOperation {
            if let installed = ProcessKeychain.taskKeychain { return installed }
            if try ProcessKeychainService.current() is DaemonKeychainService {
                throw EnclaveError.notServedThroughKeychaind
            }
            return try ProcessKeychain.current()
        }
    }
}
