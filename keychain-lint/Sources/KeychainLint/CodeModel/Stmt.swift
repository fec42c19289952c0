/// A statement in the language-neutral code model.
package struct Stmt: Sendable {
    package var kind: StmtKind
    package var position: SourcePosition

    package init(_ kind: StmtKind, at position: SourcePosition) {
        self.kind = kind
        self.position = position
    }
}

package typealias Block = [Stmt]

package indirect enum StmtKind: Sendable {
    case expression(Expr)
    case variable(VariableDecl)
    case assignment(target: Expr, op: String, value: Expr)
    case ifStatement(conditions: [Condition], then: Block, otherwise: Block?)
    case guardStatement(conditions: [Condition], otherwise: Block)
    case switchStatement(subject: Expr, cases: [SwitchCase])
    /// `#if` in a body: each clause is an exclusive branch.
    case compilationConditional(clauses: [CompilationClause])
    case loop(conditions: [Expr], body: Block)
    case returnStatement(Expr?)
    case block(Block)
    case function(FunctionDecl)
    case other([Expr])
}

package enum Condition: Sendable {
    case expression(Expr)
    /// `if let name = value` and Objective-C's `if ((name = value))`.
    case binding(name: String, value: Expr?)
}

package struct SwitchCase: Sendable {
    /// Empty for `default`.
    package var patterns: [Expr]
    package var body: Block
}

package struct CompilationClause: Sendable {
    /// The condition's text, such as `os(macOS)`; nil for `#else`.
    package var condition: String?
    package var body: Block
}
