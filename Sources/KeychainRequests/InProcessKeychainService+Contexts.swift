import KeychainCore

extension InProcessKeychainService {
    /// The longest application password a context takes, in bytes.
    package static let largestApplicationPassword = 4096
    /// The longest `localizedReason` a context takes, in bytes: a sentence, not a document.
    package static let largestLocalizedReason = 4096

    /// The requests of an `LAContext`: its context in the registry, and policy evaluations on it.
    func performContextRequest(_ request: KeychainRequest, as caller: Caller) throws -> KeychainResponse {
        let registry = keychain.authenticationContexts
        if case .createAuthenticationContext = request {
            return .authenticationContext(try registry.create())
        }
        guard let id = caller.authenticationContext else {
            throw KeychainError.param.because("the request names no authentication context")
        }
        if case .forgetAuthenticationContext = request {
            registry.forget(id)
            return .done
        }
        let context: AuthenticationContext
        do {
            context = try registry.resolve(id)
        } catch {
            // An evaluation on a context that is gone answers as one on an invalidated LAContext does.
            switch request {
            case .canEvaluatePolicy, .evaluatePolicy, .evaluateAccessControl: throw AuthenticationFailure.invalidContext
            default: throw error
            }
        }
        switch request {
        case .configureAuthenticationContext(let settings):
            if let duration = settings.reuseDuration { context.reuseDuration = duration }
            if let refused = settings.interactionNotAllowed { context.interactionNotAllowed = refused }
            return .done
        case .setApplicationPassword(let password):
            // A password is typed or derived, never megabytes: a bound on what a context holds (keychaind keeps
            // every connection's contexts).
            if let size = password?.count, size > Self.largestApplicationPassword {
                throw KeychainError.param.because(
                    "an application password is at most \(Self.largestApplicationPassword) bytes, not \(size)")
            }
            context.setApplicationPassword(password)
            return .done
        case .setLocalizedReason(let reason):
            // A refused reason leaves none, not an earlier one that no longer says why.
            context.localizedReason = nil
            guard reason.utf8.count <= Self.largestLocalizedReason else {
                throw KeychainError.param.because(
                    "a localizedReason is at most \(Self.largestLocalizedReason) bytes, not \(reason.utf8.count)")
            }
            context.localizedReason = reason
            return .done
        case .invalidateAuthenticationContext:
            context.invalidate()
            return .done
        case .authenticationContextState:
            return .authenticationContextState(
                AuthenticationContextState(
                    reuseDuration: context.reuseDuration, interactionNotAllowed: context.interactionNotAllowed,
                    isInvalidated: context.isInvalidated, hasApplicationPassword: context.hasApplicationPassword,
                    evaluatedDomainState: context.evaluatedDomainState))
        case .canEvaluatePolicy(let policy):
            try keychain.authenticators.canEvaluate(policy, context: context)
            return .done
        case .evaluatePolicy(let policy, let reason):
            let shown = PromptText.evaluation(asker: caller.identity, reason: reason)
            return .evaluated(try keychain.authenticators.evaluate(policy, context: context, reason: shown))
        case .evaluateAccessControl(let policy, let operation, let reason):
            let shown = PromptText.evaluation(asker: caller.identity, reason: reason)
            try keychain.evaluateAccessControl(policy, operation: operation, context: context, reason: shown)
            return .done
        default:
            throw KeychainError.param.because("not an authentication-context request")
        }
    }
}
