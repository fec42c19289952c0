import KeychainCore
import KeychainRequests

/// The keychain a call was made against (the task's, from `SecurityRuntime.withKeychain`, else the process's),
/// kept so that work done later or on another thread (a completion handler's queue, a persisted right's secret
/// read an hour after the store returned it) reaches the same keychain. Task-local values do not cross a
/// dispatch queue by themselves.
struct KeychainBinding: Sendable {
    private let service: (any KeychainService)?
    private let keychain: Keychain?

    fileprivate init(service: (any KeychainService)?, keychain: Keychain?) {
        self.service = service
        self.keychain = keychain
    }

    /// The binding of the calling task.
    static var current: KeychainBinding {
        KeychainBinding(service: ProcessKeychainService.taskService, keychain: ProcessKeychain.taskKeychain)
    }

    /// The object that tells this binding's keychain apart (the task's keychain, else its service's); nil for the
    /// process's own.
    var anchor: AnyObject? {
        if let keychain { return keychain }
        if let inProcess = service as? InProcessKeychainService { return inProcess.keychain }
        if let service, type(of: service) is AnyClass { return service as AnyObject }
        return nil
    }

    /// This binding without a strong hold on its keychain, for an object that outlives the calls that made it.
    var weak: WeakKeychainBinding { WeakKeychainBinding(self) }

    /// Runs `body` with this binding's keychain as the task's.
    func run<R>(_ body: () throws -> R) rethrows -> R {
        try ProcessKeychain.$taskKeychain.withValue(keychain) {
            try ProcessKeychainService.$taskService.withValue(service, operation: body)
        }
    }
}

/// A ``KeychainBinding`` that does not keep its keychain alive: what a long-lived object (an `LAEnvironment` in a
/// registry) holds, so that a task's keychain still closes when the task is done with it.
struct WeakKeychainBinding: @unchecked Sendable {  // safe: immutable but for weak references, read atomically
    private weak var anchor: AnyObject?
    private let isProcess: Bool

    init(_ binding: KeychainBinding) {
        anchor = binding.anchor
        isProcess = binding.anchor == nil
    }

    /// The binding, while its keychain (or service) lives; nil once it is gone.
    var binding: KeychainBinding? {
        if isProcess { return KeychainBinding(service: nil, keychain: nil) }
        switch anchor {
        case let keychain as Keychain:
            return KeychainBinding(service: InProcessKeychainService(keychain), keychain: keychain)
        case let service as any KeychainService: return KeychainBinding(service: service, keychain: nil)
        default: return nil
        }
    }
}
