extension Array where Element == Stmt {
    /// Visits these statements and every statement inside them: arms, loop bodies and closures. Function
    /// declarations nested in a body are left out; `SourceUnit.functions` lists them apart.
    package func visitStatements(_ body: (Stmt) -> Void) {
        for statement in self {
            body(statement)
            for nested in statement.nestedBlocks { nested.visitStatements(body) }
        }
    }
}

extension Stmt {
    /// The blocks directly inside this statement: its arms or body, and closures in its own expressions.
    package var nestedBlocks: [Block] {
        var blocks: [Block] = []
        var own: [Expr] = []
        switch kind {
        case .expression(let expr): own = [expr]
        case .variable(let decl): own = decl.initializer.map { [$0] } ?? []
        case .assignment(let target, _, let value): own = [target, value]
        case .ifStatement(let conditions, let then, let otherwise):
            own = conditions.compactMap(\.expression)
            blocks = [then] + (otherwise.map { [$0] } ?? [])
        case .guardStatement(let conditions, let otherwise):
            own = conditions.compactMap(\.expression)
            blocks = [otherwise]
        case .switchStatement(let subject, let cases):
            own = [subject]
            blocks = cases.map(\.body)
        case .compilationConditional(let clauses): blocks = clauses.map(\.body)
        case .loop(let conditions, let body):
            own = conditions
            blocks = [body]
        case .returnStatement(let value): own = value.map { [$0] } ?? []
        case .block(let block): blocks = [block]
        case .function: break
        case .other(let parts): own = parts
        }
        for expr in own { expr.collectClosures(into: &blocks) }
        return blocks
    }
}

extension Expr {
    /// The outermost closures inside this expression; closures nested in those are reached from their blocks.
    fileprivate func collectClosures(into blocks: inout [Block]) {
        if case .closure(let block) = kind {
            blocks.append(block)
            return
        }
        if case .stringLiteral(_, let interpolations) = kind {
            for part in interpolations { part.value.collectClosures(into: &blocks) }
            return
        }
        for child in children { child.collectClosures(into: &blocks) }
    }
}

extension SourceUnit {
    /// Visits every statement of the file's functions and top-level code.
    package func visitAllStatements(_ body: (Stmt) -> Void) {
        for function in functions { function.body.visitStatements(body) }
        topLevel.visitStatements(body)
    }
}
