import Synchronization

/// The keychain a process's Apple-API faces use (`Security`'s SecItem functions and `LocalAuthentication`'s
/// `LAContext`): one per process, built from the environment on first use, unless a task or the process
/// installed another. It lives here so both faces reach the same keychain without depending on each other.
package enum ProcessKeychain {
    @TaskLocal package static var taskKeychain: Keychain?
    private static let processKeychain = Mutex<Keychain?>(nil)

    /// Uses `keychain` for the whole process from now on (unless a task overrides it).
    package static func install(_ keychain: Keychain) {
        processKeychain.withLock { $0 = keychain }
    }

    /// The keychain of this task, else of the process, opened from the environment on first use.
    /// - Throws: `KeychainError` when the environment's keychain cannot be opened.
    package static func current() throws -> Keychain {
        if let keychain = taskKeychain { return keychain }
        return try processKeychain.withLock { installed in
            if let installed { return installed }
            let keychain = try Keychain(configuration: try KeychainConfiguration.fromEnvironment())
            installed = keychain
            return keychain
        }
    }
}
