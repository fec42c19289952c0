import Foundation
import Security

/// Keeps rights with a key pair and, when given, a secret that opens only while the right is authorized
/// (iOS 16, macOS 13). The items are the app's own keychain items (``RightStoreItems``): in the keychain of the
/// calling task (`SecurityRuntime.withKeychain`) or the process, through keychaind when the process uses it.
/// Failures of the store itself are `NSOSStatusErrorDomain` errors with the keychain's status: errSecItemNotFound
/// (-25300) for an identifier with no right, errSecDuplicateItem (-25299) for one already taken.
open class LARightStore: NSObject, @unchecked Sendable {  // safe: stateless
    /// The store.
    public static let shared = LARightStore()

    private override init() { super.init() }

    /// The right saved as `identifier`, not authorized: its secret and private key open after `authorize`.
    open func right(forIdentifier identifier: String) async throws -> LAPersistedRight {
        try fetch(identifier, binding: .current)
    }

    open func right(
        forIdentifier identifier: String,
        completion handler: @escaping @Sendable (LAPersistedRight?, (any Error)?) -> Void
    ) {
        let binding = KeychainBinding.current
        InBackground.reply(handler) { try self.fetch(identifier, binding: binding) }
    }

    /// Saves `right`'s requirement as `identifier`, with a new key pair under it.
    /// - Throws: `LAError.passcodeNotSet` without a passcode, `LAError.biometryNotEnrolled` for a
    ///   `.biometryCurrentSet` right while nothing is enrolled, errSecDuplicateItem when `identifier` is taken.
    open func saveRight(_ right: LARight, identifier: String) async throws -> LAPersistedRight {
        try save(right, identifier, secret: nil, binding: .current)
    }

    open func saveRight(
        _ right: LARight, identifier: String,
        completion handler: @escaping @Sendable (LAPersistedRight?, (any Error)?) -> Void
    ) {
        let binding = KeychainBinding.current
        InBackground.reply(handler) { try self.save(right, identifier, secret: nil, binding: binding) }
    }

    /// Saves `right` as `identifier` with `secret`, which only the authorized right reads back.
    open func saveRight(_ right: LARight, identifier: String, secret: Data) async throws -> LAPersistedRight {
        try save(right, identifier, secret: secret, binding: .current)
    }

    open func saveRight(
        _ right: LARight, identifier: String, secret: Data,
        completion handler: @escaping @Sendable (LAPersistedRight?, (any Error)?) -> Void
    ) {
        let binding = KeychainBinding.current
        InBackground.reply(handler) { try self.save(right, identifier, secret: secret, binding: binding) }
    }

    /// Removes `right` with its key and secret, and ends its authorization.
    open func removeRight(_ right: LAPersistedRight) async throws { try remove(right) }

    open func removeRight(_ right: LAPersistedRight, completion handler: @escaping @Sendable ((any Error)?) -> Void) {
        InBackground.reply(handler) { try self.remove(right) }
    }

    /// Removes the right saved as `identifier`. - Throws: errSecItemNotFound when there is none.
    open func removeRight(forIdentifier identifier: String) async throws { try RightStoreItems.remove(identifier) }

    open func removeRight(
        forIdentifier identifier: String, completion handler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let binding = KeychainBinding.current
        InBackground.reply(handler) { try binding.run { try RightStoreItems.remove(identifier) } }
    }

    /// Removes every right of the app.
    open func removeAllRights() async throws { try removeAll() }

    open func removeAllRights(completion handler: @escaping @Sendable ((any Error)?) -> Void) {
        let binding = KeychainBinding.current
        InBackground.reply(handler) { try binding.run { try self.removeAll() } }
    }

    private func remove(_ right: LAPersistedRight) throws {
        try right.binding.run { try RightStoreItems.remove(right.identifier, keyLabel: right.keyLabel) }
        right.deauthorizeNow()
    }

    private func fetch(_ identifier: String, binding: KeychainBinding) throws -> LAPersistedRight {
        let found = try binding.run { try RightStoreItems.find(identifier) }
        return LAPersistedRight(found, identifier: identifier, binding: binding)
    }

    private func save(_ right: LARight, _ identifier: String, secret: Data?, binding: KeychainBinding) throws
        -> LAPersistedRight
    {
        let requirement = right.requirement
        let enrolledSet = try binding.run { try Self.preflight(requirement) }
        let found = try binding.run {
            try RightStoreItems.save(identifier, requirement: requirement, enrolledSet: enrolledSet, secret: secret)
        }
        return LAPersistedRight(found, identifier: identifier, binding: binding)
    }

    /// What the keychain needs before it stores items under the requirement's access control: a passcode, and
    /// for `.biometryCurrentSet` an enrolled set to bind them to. - Returns: that set, for such a right.
    private static func preflight(_ requirement: LAAuthenticationRequirement) throws -> Data? {
        let context = LAContext()
        defer { context.invalidate() }
        var error: NSError?
        if !context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error), let error,
            error.code == LAError.passcodeNotSet.rawValue
        {
            throw LAError(_nsError: error)
        }
        guard requirement.kind == .biometryCurrentSet else { return nil }
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error),
            let enrolled = context.evaluatedPolicyDomainState
        else {
            throw error.map { LAError(_nsError: $0) } ?? LAError(.biometryNotEnrolled)
        }
        return enrolled
    }

    private func removeAll() throws {
        for identifier in try RightStoreItems.identifiers() {
            do {
                try RightStoreItems.remove(identifier)
            } catch let error as NSError where error.code == Int(errSecItemNotFound) {
                continue  // removed meanwhile by another call
            }
        }
    }
}
