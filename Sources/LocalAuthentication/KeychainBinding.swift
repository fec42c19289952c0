import KeychainCore
import KeychainRequests

/// The keychain a call was made against (the task's, from `SecurityRuntime.withKeychain`, else the process's),
/// kept so that work done later or on another thread (a completion handler's queue, a persisted right's secret
/// read an hour after the store returned it) reaches the same keychain. Task-local values do not cross a
/// dispatch queue by themselves.
struct KeychainBinding: Sendable {
    private let service: (any KeychainService)?
    private let keychain: Keychain?

    /// The binding of the calling task.
    static var current: KeychainBinding {
        KeychainBinding(service: ProcessKeychainService.taskService, keychain: ProcessKeychain.taskKeychain)
    }

    /// The object that tells this binding's keychain apart (the task's keychain, else its service); nil for the
    /// process's own.
    var anchor: AnyObject? { keychain ?? (service as AnyObject?) }

    /// Runs `body` with this binding's keychain as the task's.
    func run<R>(_ body: () throws -> R) rethrows -> R {
        try ProcessKeychain.$taskKeychain.withValue(keychain) {
            try ProcessKeychainService.$taskService.withValue(service, operation: body)
        }
    }
}
