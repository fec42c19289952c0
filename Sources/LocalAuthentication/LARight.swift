import Foundation
import Synchronization

/// A grant the user gives by authenticating, as a requirement asks (iOS 16, macOS 13). Each right evaluates on
/// an `LAContext` of its own, made in the keychain of the task that made the right; ``deauthorize()`` ends that
/// context's authentication. `LARightStore` keeps rights with a secret and a key only an authorized right opens.
open class LARight: NSObject, @unchecked Sendable {  // safe: mutable state lives in a Mutex
    /// Where a right's authorization stands.
    public enum State: Int, Sendable {
        /// Not evaluated yet: a new right's state.
        case unknown = 0
        /// ``authorize(localizedReason:)`` is asking the user.
        case authorizing = 1
        /// The user granted the right.
        case authorized = 2
        /// The requirement was not met, the user declined, or the right was deauthorized.
        case notAuthorized = 3
    }

    private struct Status {
        var state = State.unknown
        var tag = 0
        var context: LAContext
    }

    /// What the user must do to grant the right.
    let requirement: LAAuthenticationRequirement
    /// The keychain the right evaluates in (and, persisted, keeps its items in).
    let binding: KeychainBinding
    private let status: Mutex<Status>
    /// For `.biometryCurrentSet`: the enrolled set when the right was made, which an authorization must find.
    private let enrolledSet: Data?

    /// A right with the default requirement: biometry or the device passcode.
    public override convenience init() { self.init(requirement: .default) }

    /// A right granted when `requirement` is met.
    public convenience init(requirement: LAAuthenticationRequirement) {
        self.init(requirement: requirement, binding: .current)
    }

    /// - Parameter savedSet: a persisted right's enrolled set as it was saved (which may be none); nil reads the
    ///   set enrolled now.
    init(requirement: LAAuthenticationRequirement, binding: KeychainBinding, savedSet: Data?? = nil) {
        self.requirement = requirement
        self.binding = binding
        let context = binding.run { LAContext() }
        enrolledSet =
            requirement.kind == .biometryCurrentSet ? (savedSet ?? context.domainState.biometry.stateHash) : nil
        status = Mutex(Status(context: context))
        super.init()
    }

    /// Where the right's authorization stands.
    open var state: State { status.withLock { $0.state } }

    /// A number the app chooses to tell its rights apart; 0 by default.
    open var tag: Int {
        get { status.withLock { $0.tag } }
        set { status.withLock { $0.tag = newValue } }
    }

    /// The context the right evaluated on: an authorized right's items open with it without a prompt.
    var context: LAContext { status.withLock { $0.context } }

    /// Asks the user to meet the requirement; an authorized right stays authorized without asking again.
    /// - Throws: an `LAError`: why the requirement was not met (`.userCancel`, `.authenticationFailed`, …).
    open func authorize(localizedReason: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            LAContext.promptQueue.async {
                continuation.resume(with: Result { try self.authorizeNow(reason: localizedReason) })
            }
        }
    }

    /// Asks the user to meet the requirement; `handler` receives nil when the right is granted.
    open func authorize(localizedReason: String, completion handler: @escaping @Sendable ((any Error)?) -> Void) {
        LAContext.promptQueue.async {
            handler(Result { try self.authorizeNow(reason: localizedReason) }.failure)
        }
    }

    /// Whether the right could be granted now, without asking the user.
    /// - Throws: an `LAError` saying why not (`.passcodeNotSet`, `.biometryNotEnrolled`, `.biometryLockout`, …).
    open func checkCanAuthorize() async throws { try checkNow() }

    /// Whether the right could be granted now; `handler` receives nil when it could.
    open func checkCanAuthorize(completion handler: @escaping @Sendable ((any Error)?) -> Void) {
        LAContext.promptQueue.async { handler(Result { try self.checkNow() }.failure) }
    }

    /// Ends the authorization: the right's items close again, and a later use asks the user again.
    open func deauthorize() async { deauthorizeNow() }

    /// Ends the authorization, then calls `handler`.
    open func deauthorize(completion handler: @escaping @Sendable () -> Void) {
        deauthorizeNow()
        handler()
    }

    /// What an authorization checks after the user authenticated: that the enrolled set is the one the right was
    /// made with, for `.biometryCurrentSet`. A persisted right checks that its key opens.
    func confirm(_ context: LAContext) throws {
        guard requirement.kind == .biometryCurrentSet else { return }
        guard let enrolledSet, context.evaluatedPolicyDomainState == enrolledSet else {
            throw Self.enrollmentChanged
        }
    }

    /// The error of a `.biometryCurrentSet` right whose enrolled set is not the one it was made with.
    static let enrollmentChanged = LAError(
        .authenticationFailed,
        userInfo: [
            NSLocalizedDescriptionKey:
                "The enrolled biometry is not the set the right was made with: it can no longer be authorized."
        ])

    private func authorizeNow(reason: String) throws {
        let context: LAContext? = status.withLock {
            guard $0.state != .authorized else { return nil }
            $0.state = .authorizing
            return $0.context
        }
        guard let context else { return }
        do {
            _ = try context.evaluate(requirement.policy, reason: reason)
            try confirm(context)
        } catch {
            // A failure does not undo another authorization of the same context that succeeded meanwhile.
            status.withLock { if $0.context === context && $0.state != .authorized { $0.state = .notAuthorized } }
            throw error
        }
        let granted = status.withLock {
            guard $0.context === context else { return false }
            $0.state = .authorized
            return true
        }
        // Deauthorized while the user was asked: the grant went with the context, as an invalidated LAContext
        // ends its evaluation.
        guard granted else { throw LAError(.appCancel) }
    }

    /// The context of an authorized right, read with its state in one step; nil while it is not authorized.
    func authorizedContext() -> LAContext? {
        status.withLock { $0.state == .authorized ? $0.context : nil }
    }

    private func checkNow() throws {
        var error: NSError?
        guard context.canEvaluatePolicy(requirement.policy, error: &error) else {
            throw error.map { LAError(_nsError: $0) } ?? LAError(.biometryNotAvailable)
        }
        if requirement.kind == .biometryCurrentSet, context.evaluatedPolicyDomainState != enrolledSet {
            throw Self.enrollmentChanged
        }
    }

    func deauthorizeNow() {
        let fresh = binding.run { LAContext() }
        let old = status.withLock {
            let old = $0.context
            $0.context = fresh
            if $0.state != .unknown { $0.state = .notAuthorized }
            return old
        }
        old.invalidate()
    }
}
