extension Array where Element == Stmt {
    /// Visits these statements and every statement inside them: arms, loop bodies and closures. Function
    /// declarations nested in a body are left out; `SourceUnit.functions` lists them apart.
    package func visitStatements(_ body: (Stmt) -> Void) {
        for statement in self {
            body(statement)
            for nested in statement.nestedBlocks { nested.visitStatements(body) }
        }
    }

    /// `visitStatements`, leaving out the arms that a literal condition never takes (`if false { ... }`, the `else`
    /// of `if true`).
    package func visitLiveStatements(_ body: (Stmt) -> Void) {
        for statement in self {
            body(statement)
            for nested in statement.liveArms + statement.closures { nested.visitLiveStatements(body) }
        }
    }

    /// Visits every expression of the code that can run: these statements, their arms and closures, but not an arm
    /// that a literal condition never takes, nor a nested function declaration (`SourceUnit.functions` lists it
    /// apart).
    package func visitLiveExpressions(_ body: (Expr) -> Void) {
        visitLiveStatements { statement in
            for expr in statement.ownExpressions { expr.visitOutsideClosures(body) }
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
        var blocks: [Block] = []
        for expr in ownExpressions { expr.collectClosures(into: &blocks) }
        return blocks
    }

    /// The expressions the statement holds itself, not those of its arms or body: an expression statement, a
    /// variable's initializer, an assignment's target and value, conditions, a `switch`'s subject and patterns, a
    /// loop's conditions, a returned value.
    package var ownExpressions: [Expr] {
        switch kind {
        case .expression(let expr): [expr]
        case .variable(let decl): decl.initializer.map { [$0] } ?? []
        case .assignment(let target, _, let value): [target, value]
        case .ifStatement(let conditions, _, _): conditions.compactMap(\.expression)
        case .guardStatement(let conditions, _): conditions.compactMap(\.expression)
        case .switchStatement(let subject, let cases): [subject] + cases.flatMap(\.patterns)
        case .compilationConditional, .block, .function: []
        case .loop(let conditions, _): conditions
        case .returnStatement(let value): value.map { [$0] } ?? []
        case .other(let parts): parts
        }
    }
}

extension Expr {
    /// Visits this expression and every expression inside it except the statements of its closures, which
    /// `Block.visitLiveStatements` reaches as statements.
    package func visitOutsideClosures(_ body: (Expr) -> Void) {
        body(self)
        switch kind {
        case .closure: return
        case .stringLiteral(_, let interpolations):
            for part in interpolations { part.value.visitOutsideClosures(body) }
        default:
            for child in children { child.visitOutsideClosures(body) }
        }
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

    /// Visits the expressions of the file's code that can run (`Block.visitLiveExpressions`), each with the index
    /// of the body it is written in: the functions in order, then the top-level code, as `SourceAnalysis.functions`
    /// and `ConstantOrigins` number them; nil for a property's initializer (a closure stored in a property is a
    /// function of its own).
    package func visitLiveExpressions(_ body: (Expr, Int?) -> Void) {
        for (index, function) in functions.enumerated() {
            function.body.visitLiveExpressions { body($0, index) }
        }
        topLevel.visitLiveExpressions { body($0, functions.count) }
        for property in properties { property.initializer?.visitOutsideClosures { body($0, nil) } }
    }
}
