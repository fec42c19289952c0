import KeychainCrypto
import Synchronization

/// An authentication context's name in requests: 128 random bits, so a context can be named across a process
/// boundary without handing out the object, and a name cannot be guessed. Its `description` hides the bits:
/// whoever holds them may use the context's authentications.
public struct AuthenticationContextID: Sendable, Hashable, CustomStringConvertible {
    /// The 16 bytes.
    public let bytes: [UInt8]

    /// The id with these bytes; nil unless there are exactly 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// A fresh id from the system's random source.
    static func random() throws -> AuthenticationContextID {
        let bytes = try SystemRandom.bytes(16)
        guard let id = AuthenticationContextID(bytes: bytes) else {
            throw KeychainError(SecurityStatus.internalComponent, reason: "the random source gave a short id")
        }
        return id
    }

    public var description: String { "AuthenticationContextID(redacted)" }
}

/// The authentication contexts of one keychain, by id. A caller names a context in its requests; the grants
/// it holds stay here, beside the engine, where a daemon keeps them out of its clients' reach.
///
/// An id that was never handed out by this registry, or was forgotten, is refused with `errSecParam` (-50).
package final class AuthenticationContextRegistry: Sendable {
    private let contexts = Mutex<[AuthenticationContextID: AuthenticationContext]>([:])

    package init() {}

    /// Makes a new context and answers its id.
    /// - Throws: errSecInternalComponent when the system's random source fails.
    package func create() throws -> AuthenticationContextID {
        try register(AuthenticationContext())
    }

    /// Names an existing context (the in-process face makes the object first).
    package func register(_ context: AuthenticationContext) throws -> AuthenticationContextID {
        while true {
            let id = try AuthenticationContextID.random()
            let inserted = contexts.withLock { table in
                guard table[id] == nil else { return false }
                table[id] = context
                return true
            }
            if inserted { return id }
        }
    }

    /// The context named `id`.
    /// - Throws: errSecParam when no context has that id (never created here, or forgotten).
    package func resolve(_ id: AuthenticationContextID) throws -> AuthenticationContext {
        guard let context = contexts.withLock({ $0[id] }) else {
            throw KeychainError.param.because(
                "the request names an authentication context this keychain does not know (it was never created "
                    + "here, or it was forgotten)")
        }
        return context
    }

    /// Forgets `id`: its context is invalidated and later requests naming it are refused.
    package func forget(_ id: AuthenticationContextID) {
        contexts.withLock { $0.removeValue(forKey: id) }?.invalidate()
    }

    /// How many contexts are known.
    package var count: Int { contexts.withLock { $0.count } }
}
