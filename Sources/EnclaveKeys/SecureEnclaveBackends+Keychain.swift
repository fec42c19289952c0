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
            if try ProcessKeychainService.current() is DaemonKeychainService { throw EnclaveError.notThroughKeychaind }
            return try ProcessKeychain.current()
        }
    }
}

extension EnclaveError {
    /// errSecUnimplemented for a process whose keychain is keychaind's (see ``SecureEnclaveBackends/sealingKeychain()``).
    package static let notThroughKeychaind = EnclaveError.status(
        -4,
        reason: "Secure Enclave keys are not served through keychaind yet: their auth values would be sealed in a "
            + "keychain of this process's own")

    /// Whether this is ``notThroughKeychaind``, which is not the -4 of a machine without an enclave.
    package var isNotThroughKeychaind: Bool {
        guard case .status(-4, let reason) = self, case .status(_, let expected) = Self.notThroughKeychaind else {
            return false
        }
        return reason == expected
    }
}
