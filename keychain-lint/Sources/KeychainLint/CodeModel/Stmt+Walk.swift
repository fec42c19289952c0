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
    package var nestedBlocks: [Block] { arms + closures }

    /// The statement's own arms or body: if/else, guard, switch cases, `#if` clauses, loop, do/catch and defer bodies.
    package var arms: [Block] {
        switch kind {
        case .ifStatement(_, let then, let otherwise): [then] + (otherwise.map { [$0] } ?? [])
        case .guardStatement(_, let otherwise): [otherwise]
        case .switchStatement(_, let cases): cases.map(\.body)
        case .compilationConditional(let clauses): clauses.map(\.body)
        case .loop(_, let body): [body]
        case .block(let block): [block]
        case .expression, .variable, .assignment, .returnStatement, .function, .other: []
        }
    }

    /// `arms` without the one that a literal condition never takes (the body of `if false`, the `else` of `if true`).
    package var liveArms: [Block] {
        guard case .ifStatement(let conditions, let then, let otherwise) = kind, let taken = conditions.literalValue
        else { return arms }
        return taken ? [then] : otherwise.map { [$0] } ?? []
    }

    /// The outermost closures in the statement's own expressions (if and switch expressions are lowered as closures).
    package var closures: [Block] {
        var own: [Expr] = []
        switch kind {
        case .expression(let expr): own = [expr]
        case .variable(let decl): own = decl.initializer.map { [$0] } ?? []
        case .assignment(let target, _, let value): own = [target, value]
        case .ifStatement(let conditions, _, _): own = conditions.compactMap(\.expression)
        case .guardStatement(let conditions, _): own = conditions.compactMap(\.expression)
        case .switchStatement(let subject, _): own = [subject]
        case .compilationConditional, .block, .function: break
        case .loop(let conditions, _): own = conditions
        case .returnStatement(let value): own = value.map { [$0] } ?? []
        case .other(let parts): own = parts
        }
        var blocks: [Block] = []
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
