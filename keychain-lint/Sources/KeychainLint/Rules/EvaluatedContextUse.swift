/// How a body uses the result of an `evaluatePolicy`, for KL304.
enum EvaluatedContextUse {
    /// Whether the evaluated `LAContext` leaves the function, returned or passed to another call: the caller then
    /// uses it as `kSecUseAuthenticationContext`, which binds the prompt to a keychain item, so it is no gate.
    static func handsOnContext(of evaluation: Expr, in body: [Stmt]) -> Bool {
        guard let name = evaluation.callReceiver?.unwrapped.terminalName else { return false }
        func isContext(_ expr: Expr) -> Bool {
            if case .identifier(let identifier) = expr.unwrapped.kind { return identifier == name }
            return false
        }
        var handed = false
        body.visitLiveStatements { statement in
            if case .returnStatement(let value?) = statement.kind, isContext(value) { handed = true }
        }
        body.visitLiveExpressions { expr in
            guard case .call = expr.kind, expr.position != evaluation.position else { return }
            if expr.callArguments.contains(where: { isContext($0.value) }) { handed = true }
        }
        return handed
    }

    /// Whether the evaluation's `reply:` is a closure the caller gave (`reply: reply`): the result is handed on and
    /// may guard anything.
    static func repliesToCaller(_ evaluation: Expr) -> Bool {
        evaluation.callArguments.contains { argument in
            guard argument.label == "reply" else { return false }
            if case .closure = argument.value.unwrapped.kind { return false }
            return true
        }
    }
}
