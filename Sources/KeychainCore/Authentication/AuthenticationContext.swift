import Foundation
import KeychainCrypto
import Synchronization

/// The engine's side of an `LAContext`: its settings, the authentications it has performed, and an
/// application password. Passed with a keychain read (`kSecUseAuthenticationContext`), its authentications
/// are reused instead of prompting again.
public final class AuthenticationContext: Sendable {
    /// The longest reuse duration, in seconds (`LATouchIDAuthenticationMaximumAllowableReuseDuration`).
    public static let maximumReuseDuration: Double = 300

    struct Grant {
        let at: Date
        /// The enrolled set at the time, for biometry.
        let domainState: [UInt8]?
    }

    private struct State {
        var reuseDuration: Double = 0
        var interactionNotAllowed = false
        var invalidated = false
        var grants: [AuthenticationMethod: Grant] = [:]
        var applicationPassword: SecureBytes?
        var domainState: [UInt8]?
        var localizedReason: String?
    }

    private let state = Mutex(State())

    public init() {}

    /// How long, in seconds, an authentication of this context may be reused by keychain reads; 0 (the
    /// default) means for the context's whole life, until ``invalidate()``. Capped at five minutes.
    public var reuseDuration: Double {
        get { state.withLock { $0.reuseDuration } }
        set { state.withLock { $0.reuseDuration = min(max(newValue, 0), Self.maximumReuseDuration) } }
    }

    /// When true, anything that would need a prompt fails instead (`notInteractive`,
    /// errSecInteractionNotAllowed).
    public var interactionNotAllowed: Bool {
        get { state.withLock { $0.interactionNotAllowed } }
        set { state.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// `LAContext.localizedReason`: what a prompt for a keychain call on this context says when the call gives no
    /// `kSecUseOperationPrompt` (Apple's replacement for it since iOS 14); nil or empty for none.
    public var localizedReason: String? {
        get { state.withLock { $0.localizedReason } }
        set { state.withLock { $0.localizedReason = newValue?.isEmpty == false ? newValue : nil } }
    }

    /// Whether ``invalidate()`` was called.
    public var isInvalidated: Bool { state.withLock { $0.invalidated } }

    /// Ends the context: its authentications are forgotten and later evaluations fail.
    public func invalidate() {
        state.withLock {
            $0.invalidated = true
            $0.grants = [:]
            $0.applicationPassword = nil
        }
    }

    /// Sets (or, with nil, clears) the application password items with `.applicationPassword` need.
    public func setApplicationPassword(_ password: [UInt8]?) {
        state.withLock { $0.applicationPassword = password.map { SecureBytes($0) } }
    }

    /// Sets (or clears) the application password, sharing the secret's wiped-on-free memory: no plain copy.
    public func setApplicationPassword(_ password: Secret?) {
        state.withLock { $0.applicationPassword = password?.storage }
    }

    /// The enrolled biometric set seen by the last evaluation or availability check.
    public var evaluatedDomainState: [UInt8]? { state.withLock { $0.domainState } }

    /// Whether an application password is set.
    public var hasApplicationPassword: Bool { state.withLock { $0.applicationPassword != nil } }

    var applicationPassword: SecureBytes? { state.withLock { $0.applicationPassword } }

    func noteDomainState(_ domainState: [UInt8]?) {
        state.withLock { $0.domainState = domainState }
    }

    func record(_ method: AuthenticationMethod, at date: Date, domainState: [UInt8]?) {
        state.withLock { $0.grants[method] = Grant(at: date, domainState: domainState) }
    }

    /// Whether an authentication by `method` can be reused now: not invalidated, within the reuse duration,
    /// and, for biometry, with the same enrolled set.
    func holds(_ method: AuthenticationMethod, now: Date, domainState: [UInt8]?) -> Bool {
        state.withLock { state in
            guard !state.invalidated, let grant = state.grants[method] else { return false }
            if state.reuseDuration > 0, now.timeIntervalSince(grant.at) > state.reuseDuration { return false }
            if method == .biometry, grant.domainState != domainState { return false }
            return true
        }
    }
}

/// An object that names an authentication context: LocalAuthentication's `LAContext`, which the Security
/// face receives as `kSecUseAuthenticationContext` without depending on LocalAuthentication.
package protocol AuthenticationContextCarrier: AnyObject, Sendable {
    /// The context's id in its keychain's registry, which requests carry; nil when the object has no keychain.
    var authenticationContextID: AuthenticationContextID? { get }
    /// The context object itself, for in-process callers of the engine (the Secure Enclave keys).
    var authenticationContext: AuthenticationContext { get }
}
