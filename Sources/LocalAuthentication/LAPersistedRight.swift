import Foundation
import Security

/// A right kept by `LARightStore` (iOS 16, macOS 13), with a key pair and, when one was saved, a secret. Its
/// private key and its secret open only while the right is authorized: they are keychain items under the access
/// control its requirement names, read with the right's own context and never with a prompt of their own.
open class LAPersistedRight: LARight, @unchecked Sendable {  // safe: immutable beyond LARight's locked state
    /// The identifier the right was saved under.
    let identifier: String
    private let hasSecret: Bool
    /// The key pair's application label, from the right's record: what tells this right from one saved later
    /// under the same identifier.
    let keyLabel: Data
    private let publicKeyRef: SecKey

    init(_ found: RightStoreItems.Found, identifier: String, binding: KeychainBinding) {
        self.identifier = identifier
        hasSecret = found.record.hasSecret
        keyLabel = found.record.keyLabel
        publicKeyRef = found.publicKey
        super.init(requirement: found.requirement, binding: binding, savedSet: .some(found.record.enrolledSet))
    }

    /// The right's private key: signing, decrypting and key agreement need the right authorized.
    open var key: LAPrivateKey { LAPrivateKey(right: self, publicKey: LAPublicKey(publicKeyRef)) }

    /// The secret saved with the right.
    open var secret: LASecret { LASecret(right: self) }

    /// An authorization also opens the right's key with the right's context: the proof that the requirement
    /// the key was stored under is met (for `.biometryCurrentSet`, that the enrolled set is still the saved one).
    override func confirm(_ context: LAContext) throws {
        try super.confirm(context)
        do {
            _ = try binding.run { try RightStoreItems.privateKey(identifier, label: keyLabel, context: context) }
        } catch {
            throw LAError(
                .authenticationFailed,
                userInfo: [
                    NSLocalizedDescriptionKey: "The key of the right “\(identifier)” did not open with this "
                        + "authentication.",
                    NSUnderlyingErrorKey: error,
                ])
        }
    }

    /// The private key, for a right that is authorized.
    /// - Throws: `LAError.notInteractive` when it is not: opening the key would need the user.
    func authorizedPrivateKey() throws -> SecKey {
        let context = try authorizedContextOrError()
        return try binding.run { try RightStoreItems.privateKey(identifier, label: keyLabel, context: context) }
    }

    /// The saved secret, for a right that is authorized.
    func authorizedSecret() throws -> Data {
        let context = try authorizedContextOrError()
        guard hasSecret else {
            throw RightStoreItems.statusError(
                errSecItemNotFound, "the right “\(identifier)” was saved without a secret")
        }
        return try binding.run { try RightStoreItems.secret(identifier, keyLabel: keyLabel, context: context) }
    }

    private func authorizedContextOrError() throws -> LAContext {
        guard let context = authorizedContext() else {
            throw LAError(
                .notInteractive,
                userInfo: [
                    NSLocalizedDescriptionKey: "The right “\(identifier)” is not authorized: call "
                        + "authorize(localizedReason:) first."
                ])
        }
        return context
    }
}

/// The secret saved with a persisted right (iOS 16, macOS 13).
open class LASecret: NSObject, @unchecked Sendable {  // safe: immutable
    /// Made on each use of `secret`, so holding the right makes no cycle.
    private let right: LAPersistedRight

    init(right: LAPersistedRight) { self.right = right }

    /// The secret's bytes. - Throws: `LAError.notInteractive` while the right is not authorized; an
    /// `NSOSStatusErrorDomain` error with errSecItemNotFound when the right was saved without a secret.
    open var rawData: Data {
        get async throws { try load() }
    }

    /// Loads the secret's bytes; `handler` receives them, or the error.
    open func loadData(completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void) {
        InBackground.reply(handler) { try self.load() }
    }

    private func load() throws -> Data { try right.authorizedSecret() }
}
