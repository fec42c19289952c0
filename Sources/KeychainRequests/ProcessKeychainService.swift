import KeychainCore

/// The service a process's faces use (`Security`'s SecItem functions, `LocalAuthentication`'s `LAContext`):
/// a task's own when one is set; else keychaind's when the process names its socket (``DaemonSetting``:
/// `KEYCHAIN_SOCKET`, or the administrator's `/etc/keychain/daemon`); else the in-process service over the
/// process's keychain (`ProcessKeychain`: installed, or opened from the environment on first use).
package enum ProcessKeychainService {
    /// A service for this task and its children, in place of the process's keychain.
    @TaskLocal package static var taskService: (any KeychainService)?

    /// The service of this task when it is another process's (keychaind's), found without opening the process's
    /// keychain; nil when the keychain is in this process.
    package static var outOfProcess: (any KeychainService)? {
        if let service = taskService { return service is InProcessKeychainService ? nil : service }
        return DaemonSetting.processService
    }

    /// The service of this task, else of the process.
    /// - Throws: `KeychainError` when the environment's keychain cannot be opened.
    package static func current() throws -> any KeychainService {
        if let service = taskService { return service }
        if let daemon = DaemonSetting.processService { return daemon }
        return InProcessKeychainService(try ProcessKeychain.current())
    }
}
