extension Keychain {
    /// What `LAContext.evaluateAccessControl` asks for.
    public enum AccessControlOperation: UInt8, Sendable, Hashable {
        case createItem = 0
        case useItem = 1
        case createKey = 2
        case useKeySign = 3
        case useKeyDecrypt = 4
        case useKeyKeyExchange = 5

        /// Whether the operation opens what the access control protects; creating it needs no authentication.
        var usesProtectedValue: Bool { self != .createItem && self != .createKey }
    }

    /// Authenticates `context` for `policy` as reading an item under it would, with no item: the context then
    /// opens such items (within its reuse duration) without a prompt. Creating needs no authentication, nor does
    /// an access control without constraints.
    /// - Throws: ``AuthenticationFailure``: how the prompt ended, `.notInteractive` when the context refuses
    ///   interaction, `.authenticationFailed` when no prompt can satisfy it (an application password not set).
    package func evaluateAccessControl(
        _ policy: AccessControlPolicy, operation: AccessControlOperation, context: AuthenticationContext,
        reason: String
    ) throws {
        if context.isInvalidated { throw AuthenticationFailure.invalidContext }
        guard operation.usesProtectedValue, policy.hasConstraints else { return }
        let alternatives = policy.alternatives
        var prompted: Set<AuthenticationPolicy> = []
        while true {
            let sensor = try authenticators.sensor.keys()
            if try alternatives.contains(where: { try satisfied($0, context: context, sensor: sensor) }) { return }
            guard let next = promptPolicy(alternatives, context: context, excluding: prompted) else {
                throw AuthenticationFailure.authenticationFailed
            }
            if context.interactionNotAllowed { throw AuthenticationFailure.notInteractive }
            try authenticators.evaluate(next, context: context, reason: reason)
            prompted.insert(next)
        }
    }
}
