extension Expr {
    /// The expression without value-preserving wrappers: parentheses, `try`, `await`, casts and `&`.
    package var unwrapped: Expr {
        switch kind {
        case .transparent(let inner), .cast(let inner, _, _): inner.unwrapped
        case .prefix("&", let inner): inner.unwrapped
        default: self
        }
    }

    /// The name an identifier or member access ends with: `kSecClass`, `standard`, `biometryAny`.
    package var terminalName: String? {
        switch kind {
        case .identifier(let name): name
        case .member(_, let name): name
        default: nil
        }
    }

    /// For a call, the name of the called function or method.
    package var calleeName: String? {
        guard case .call(let callee, _, _) = kind else { return nil }
        return callee.unwrapped.terminalName
    }

    package var callArguments: [Argument] {
        guard case .call(_, let arguments, _) = kind else { return [] }
        return arguments
    }

    /// For a method call, the receiver.
    package var callReceiver: Expr? {
        guard case .call(let callee, _, _) = kind, case .member(let base, _) = callee.unwrapped.kind else { return nil }
        return base
    }

    /// The identifier at the root of a chain such as `self.defaults.standard.set`.
    package var rootName: String? {
        switch kind {
        case .identifier(let name): name
        case .member(let base, let name): base?.rootName ?? name
        case .call(let callee, _, _): callee.rootName
        case .subscriptAccess(let base, _): base.rootName
        case .forceUnwrap(let inner), .transparent(let inner), .cast(let inner, _, _): inner.rootName
        default: nil
        }
    }

    /// The dotted text of an identifier or member chain, such as `UserDefaults.standard`.
    package var dottedName: String? {
        switch kind {
        case .identifier(let name): return name
        case .member(let base, let name):
            guard let base else { return "." + name }
            return base.dottedName.map { $0 + "." + name }
        case .call(let callee, _, _): return callee.dottedName.map { $0 + "()" }
        case .forceUnwrap(let inner), .transparent(let inner): return inner.dottedName
        default: return nil
        }
    }

    package var stringValue: String? {
        if case .stringLiteral(let text, let interpolations) = unwrapped.kind, interpolations.isEmpty { return text }
        return nil
    }

    /// The expressions directly inside this one, closures included.
    /// A conditional expression whose condition is the literal `true` or `false`: the side it takes, and the one
    /// it never does.
    package var literalConditionSides: (taken: Expr, untaken: Expr)? {
        guard case .ternary(let condition, let then, let otherwise) = kind,
            case .booleanLiteral(let taken) = condition.unwrapped.kind
        else { return nil }
        return taken ? (then, otherwise) : (otherwise, then)
    }

    package var children: [Expr] {
        switch kind {
        case .identifier, .stringLiteral, .integerLiteral, .floatLiteral, .booleanLiteral, .nilLiteral: []
        case .member(let base, _): base.map { [$0] } ?? []
        case .call(let callee, let arguments, let closures):
            [callee] + arguments.map(\.value) + closures.map { Expr(.closure($0), at: position, endOffset: endOffset) }
        case .dictionary(let entries): entries.flatMap { [$0.key, $0.value] }
        case .array(let elements): elements
        case .cast(let inner, _, _), .forceUnwrap(let inner), .prefix(_, let inner), .transparent(let inner): [inner]
        case .subscriptAccess(let base, let arguments): [base] + arguments.map(\.value)
        case .closure: []
        case .binary(_, let lhs, let rhs): [lhs, rhs]
        case .ternary(let condition, let then, let otherwise): [condition, then, otherwise]
        case .other(let parts): parts
        }
    }

    /// Visits this expression and every expression inside it, including statements inside closures.
    package func visit(_ body: (Expr) -> Void) {
        body(self)
        if case .closure(let block) = kind {
            block.visitExpressions(body)
            return
        }
        if case .stringLiteral(_, let interpolations) = kind {
            for part in interpolations { part.value.visit(body) }
            return
        }
        for child in children { child.visit(body) }
    }
}

extension Array where Element == Stmt {
    /// Visits every expression in these statements, nested blocks and closures included.
    package func visitExpressions(_ body: (Expr) -> Void) {
        for statement in self { statement.visitExpressions(body) }
    }

    /// Visits the expressions that ship in a release build, skipping `#if DEBUG` and simulator-only clauses.
    package func visitShippingExpressions(_ body: (Expr) -> Void) {
        for statement in self {
            if case .compilationConditional(let clauses) = statement.kind {
                for clause in clauses where !Self.isDevelopmentOnly(clause.condition) {
                    clause.body.visitShippingExpressions(body)
                }
            } else {
                statement.visitExpressions(body)
            }
        }
    }

    /// Whether control never continues past these statements: they end in `return`, `throw`, a call that
    /// does not return, or an `if` whose arms all exit.
    package var exits: Bool {
        guard let last = last else { return false }
        switch last.kind {
        case .returnStatement: return true
        case .expression(let expr):
            return ["fatalError", "preconditionFailure", "abort", "exit"].contains(expr.unwrapped.calleeName ?? "")
        case .ifStatement(_, let then, let otherwise?): return then.exits && otherwise.exits
        case .block(let block): return block.exits
        default: return false
        }
    }

    package static func isDevelopmentOnly(_ condition: String?) -> Bool {
        guard let condition else { return false }
        return condition == "DEBUG" || condition.contains("targetEnvironment(simulator)")
    }
}

extension Stmt {
    package func visitExpressions(_ body: (Expr) -> Void) {
        switch kind {
        case .expression(let expr): expr.visit(body)
        case .variable(let decl): decl.initializer?.visit(body)
        case .assignment(let target, _, let value):
            target.visit(body)
            value.visit(body)
        case .ifStatement(let conditions, let then, let otherwise):
            for condition in conditions { condition.expression?.visit(body) }
            then.visitExpressions(body)
            otherwise?.visitExpressions(body)
        case .guardStatement(let conditions, let otherwise):
            for condition in conditions { condition.expression?.visit(body) }
            otherwise.visitExpressions(body)
        case .switchStatement(let subject, let cases):
            subject.visit(body)
            for item in cases {
                for pattern in item.patterns { pattern.visit(body) }
                item.body.visitExpressions(body)
            }
        case .compilationConditional(let clauses):
            for clause in clauses { clause.body.visitExpressions(body) }
        case .loop(let conditions, let block):
            for condition in conditions { condition.visit(body) }
            block.visitExpressions(body)
        case .returnStatement(let value): value?.visit(body)
        case .block(let block): block.visitExpressions(body)
        case .function(let function): function.body.visitExpressions(body)
        case .other(let parts): for part in parts { part.visit(body) }
        }
    }
}

extension Array where Element == Condition {
    /// The value of a condition that is one Boolean literal (`if false`): the arm it never takes is dead code.
    package var literalValue: Bool? {
        guard count == 1, case .expression(let expr) = self[0], case .booleanLiteral(let value) = expr.unwrapped.kind
        else { return nil }
        return value
    }
}

extension Condition {
    package var expression: Expr? {
        switch self {
        case .expression(let expr): expr
        case .binding(_, let value): value
        }
    }
}
