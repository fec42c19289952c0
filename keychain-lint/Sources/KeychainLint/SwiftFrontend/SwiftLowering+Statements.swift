internal import SwiftSyntax

extension SwiftLowering {
    func lowerItems(_ items: CodeBlockItemListSyntax) -> Block {
        items.flatMap { lowerItem($0) }
    }

    func lowerItem(_ item: CodeBlockItemSyntax) -> Block {
        switch item.item {
        case .decl(let decl): lowerLocalDecl(decl)
        case .stmt(let stmt): [lowerStmt(stmt)]
        case .expr(let expr): [lowerExpressionStatement(expr)]
        @unknown default: []
        }
    }

    func lowerLocalDecl(_ decl: DeclSyntax) -> Block {
        if let variable = decl.as(VariableDeclSyntax.self) {
            return lowerVariable(variable).map { Stmt(.variable($0), at: $0.position) }
        }
        if let conditional = decl.as(IfConfigDeclSyntax.self) {
            let clauses = liveClauses(conditional).map { clause in
                var body: Block = []
                withCondition(clause) {
                    if case .statements(let items) = clause.elements { body = lowerItems(items) }
                }
                return CompilationClause(condition: clause.condition?.trimmedDescription, body: body)
            }
            return [Stmt(.compilationConditional(clauses: clauses), at: position(of: conditional))]
        }
        // Nested functions and types are analysed on their own, not as part of the enclosing flow.
        lowerMemberDecl(decl)
        return []
    }

    func lowerExpressionStatement(_ syntax: ExprSyntax) -> Stmt {
        let at = position(of: syntax)
        if let ifExpr = syntax.as(IfExprSyntax.self) { return lowerIf(ifExpr) }
        if let switchExpr = syntax.as(SwitchExprSyntax.self) { return lowerSwitch(switchExpr) }
        let expr = lowerExpr(syntax)
        if case .binary(let op, let lhs, let rhs) = expr.kind, Self.assignmentOperators.contains(op) {
            return Stmt(.assignment(target: lhs, op: op, value: rhs), at: at)
        }
        return Stmt(.expression(expr), at: at)
    }

    func lowerStmt(_ stmt: StmtSyntax) -> Stmt {
        let at = position(of: stmt)
        if let expression = stmt.as(ExpressionStmtSyntax.self) {
            return lowerExpressionStatement(expression.expression)
        }
        if let guardStmt = stmt.as(GuardStmtSyntax.self) {
            return Stmt(
                .guardStatement(
                    conditions: lowerConditions(guardStmt.conditions),
                    otherwise: lowerItems(guardStmt.body.statements)),
                at: at)
        }
        if let returnStmt = stmt.as(ReturnStmtSyntax.self) {
            return Stmt(.returnStatement(returnStmt.expression.map { lowerExpr($0) }), at: at)
        }
        if let forStmt = stmt.as(ForStmtSyntax.self) {
            return Stmt(
                .loop(conditions: [lowerExpr(forStmt.sequence)], body: lowerItems(forStmt.body.statements)), at: at)
        }
        if let whileStmt = stmt.as(WhileStmtSyntax.self) {
            let conditions = lowerConditions(whileStmt.conditions).compactMap(\.expression)
            return Stmt(.loop(conditions: conditions, body: lowerItems(whileStmt.body.statements)), at: at)
        }
        if let repeatStmt = stmt.as(RepeatStmtSyntax.self) {
            return Stmt(
                .loop(conditions: [lowerExpr(repeatStmt.condition)], body: lowerItems(repeatStmt.body.statements)),
                at: at)
        }
        if let doStmt = stmt.as(DoStmtSyntax.self) {
            var block = lowerItems(doStmt.body.statements)
            for clause in doStmt.catchClauses {
                let handler = lowerItems(clause.body.statements)
                block.append(
                    Stmt(.ifStatement(conditions: [], then: handler, otherwise: nil), at: position(of: clause)))
            }
            return Stmt(.block(block), at: at)
        }
        if let deferStmt = stmt.as(DeferStmtSyntax.self) {
            return Stmt(.block(lowerItems(deferStmt.body.statements)), at: at)
        }
        if let throwStmt = stmt.as(ThrowStmtSyntax.self) {
            return Stmt(.returnStatement(lowerExpr(throwStmt.expression)), at: at)
        }
        return Stmt(.other(lowerChildExpressions(of: stmt)), at: at)
    }

    func lowerConditions(_ list: ConditionElementListSyntax) -> [Condition] {
        list.compactMap { element in
            switch element.condition {
            case .expression(let expr):
                return .expression(lowerExpr(expr))
            case .optionalBinding(let binding):
                let name = binding.pattern.trimmedDescription
                let value =
                    binding.initializer.map { lowerExpr($0.value) }
                    ?? Expr(.identifier(name), at: position(of: binding.pattern), endOffset: endOffset(of: binding))
                return .binding(name: name, value: value)
            case .matchingPattern(let pattern):
                return .expression(lowerExpr(pattern.initializer.value))
            default:
                return nil
            }
        }
    }

    func lowerIf(_ syntax: IfExprSyntax) -> Stmt {
        var otherwise: Block?
        switch syntax.elseBody {
        case .ifExpr(let nested): otherwise = [lowerIf(nested)]
        case .codeBlock(let block): otherwise = lowerItems(block.statements)
        case nil: otherwise = nil
        @unknown default: otherwise = nil
        }
        return Stmt(
            .ifStatement(
                conditions: lowerConditions(syntax.conditions), then: lowerItems(syntax.body.statements),
                otherwise: otherwise),
            at: position(of: syntax))
    }

    func lowerSwitch(_ syntax: SwitchExprSyntax) -> Stmt {
        var cases: [SwitchCase] = []
        func collect(_ list: SwitchCaseListSyntax) {
            for element in list {
                switch element {
                case .switchCase(let item):
                    var patterns: [Expr] = []
                    if case .case(let label) = item.label {
                        patterns = label.caseItems.map { caseItem in
                            if let expression = caseItem.pattern.as(ExpressionPatternSyntax.self) {
                                return lowerExpr(expression.expression)
                            }
                            return Expr(
                                .other([]), at: position(of: caseItem.pattern), endOffset: endOffset(of: caseItem))
                        }
                    }
                    cases.append(SwitchCase(patterns: patterns, body: lowerItems(item.statements)))
                case .ifConfigDecl(let conditional):
                    for clause in conditional.clauses {
                        if case .switchCases(let nested) = clause.elements { collect(nested) }
                    }
                @unknown default:
                    continue
                }
            }
        }
        collect(syntax.cases)
        return Stmt(.switchStatement(subject: lowerExpr(syntax.subject), cases: cases), at: position(of: syntax))
    }

    static let assignmentOperators: Set<String> = ["=", "+=", "-=", "*=", "/=", "??="]
}
