/// KL208–KL209: the release checklist's error handling. Every SecItem write's OSStatus is checked, and
/// errSecDuplicateItem is handled rather than swallowed or only logged.
package struct StatusHandlingChecker: SourceChecker {
    private static let writes: Set<String> = ["SecItemAdd", "SecItemUpdate", "SecItemDelete"]
    /// Callbacks that hand a result to the caller.
    private static let resultHandlers: Set<String> = [
        "completion", "completionHandler", "reply", "callback", "handler", "resume", "failure", "reject",
    ]

    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        let swift = analysis.unit.language == .swift
        for function in analysis.functions {
            checkDiscarded(
                in: function.decl.body, returned: swift && function.decl.returnsValue, swift: swift, into: &collector)
            function.decl.body.visitLiveStatements { checkDuplicateBranch($0, into: &collector) }
        }
    }

    /// `returned`: the block's value is what its Swift function, getter or closure gives back, so a lone expression
    /// there is returned (`-> OSStatus { SecItemAdd(...) }`, `queue.sync { SecItemAdd(...) }`), not discarded. In a
    /// Void body and in arms, cases, loop and catch bodies the lone call's status is thrown away. An arm that a
    /// literal condition never takes (`if false { ... }`) never runs and is left out.
    private func checkDiscarded(in block: Block, returned: Bool, swift: Bool, into collector: inout FindingCollector) {
        let lone = returned && block.count == 1
        for statement in block {
            if !lone { checkDiscarded(statement, into: &collector) }
            // A lone if with an else, switch or `#if` is the returned expression itself (SE-0380), so its arms are
            // returned too; an if without an else is only a statement.
            var armsReturned = false
            switch statement.kind {
            case .ifStatement(_, _, let otherwise): armsReturned = lone && otherwise != nil
            case .switchStatement, .compilationConditional: armsReturned = lone
            default: break
            }
            for arm in statement.liveArms {
                checkDiscarded(in: arm, returned: armsReturned, swift: swift, into: &collector)
            }
            for closure in Self.closures(of: statement) {
                checkDiscarded(in: closure.block, returned: swift && closure.returned, swift: swift, into: &collector)
            }
        }
    }

    // MARK: KL208

    /// Calls whose closure's result nobody receives: the closure returns Void there, so its one call is a discard.
    private static let voidClosureCallees: Set<String> = [
        "forEach", "async", "asyncAfter", "addOperation", "concurrentPerform",
    ]
    /// Calls whose closure's result is kept in the value they make, used only when that value is stored.
    private static let taskCallees: Set<String> = ["Task", "detached"]

    /// The closures a statement holds (outside its arms), each with whether its value is used: false for the
    /// closure of `forEach`, `async`, `asyncAfter`... and of a `Task` whose handle is not kept.
    private static func closures(of statement: Stmt) -> [(block: Block, returned: Bool)] {
        var found: [(block: Block, returned: Bool)] = []
        var statementValue: Expr?
        if case .expression(let expr) = statement.kind { statementValue = expr.unwrapped }
        for expr in statement.ownExpressions {
            collectClosures(in: expr, statementValue: statementValue, into: &found)
        }
        return found
    }

    private static func collectClosures(
        in expr: Expr, statementValue: Expr?, into found: inout [(block: Block, returned: Bool)]
    ) {
        switch expr.kind {
        case .closure(let block):
            found.append((block, true))
        case .stringLiteral(_, let interpolations):
            for part in interpolations { collectClosures(in: part.value, statementValue: nil, into: &found) }
        case .call(let callee, let arguments, let trailing):
            let name = callee.unwrapped.terminalName ?? ""
            let isStatement =
                statementValue.map { $0.position == expr.position && $0.endOffset == expr.endOffset } ?? false
            let discards = voidClosureCallees.contains(name) || (taskCallees.contains(name) && isStatement)
            collectClosures(in: callee, statementValue: nil, into: &found)
            for argument in arguments {
                if case .closure(let block) = argument.value.unwrapped.kind {
                    found.append((block, !discards))
                } else {
                    collectClosures(in: argument.value, statementValue: nil, into: &found)
                }
            }
            for block in trailing { found.append((block, !discards)) }
        default:
            for child in expr.children { collectClosures(in: child, statementValue: nil, into: &found) }
        }
    }

    private func checkDiscarded(_ statement: Stmt, into collector: inout FindingCollector) {
        let call: Expr
        switch statement.kind {
        case .expression(let expr): call = expr.unwrapped
        case .assignment(let target, "=", let value):
            guard case .identifier("_") = target.unwrapped.kind else { return }
            call = value.unwrapped
        // `let _ = SecItemAdd(...)`
        case .variable(let decl):
            guard decl.name == "_", let value = decl.initializer else { return }
            call = value.unwrapped
        default: return
        }
        guard let name = call.calleeName, Self.writes.contains(name) else { return }
        collector.report(
            RuleCatalog.discardedStatus, at: call.position,
            "the OSStatus of \(name) is discarded: a failed write (a duplicate, a locked device, errSecParam) "
                + "goes unnoticed; check it and report the failure")
    }

    // MARK: KL209

    private func checkDuplicateBranch(_ statement: Stmt, into collector: inout FindingCollector) {
        switch statement.kind {
        case .ifStatement(let conditions, let then, _):
            for case .expression(let condition) in conditions {
                if let mention = Self.duplicateTest(in: condition, op: "==") { report(mention, then, &collector) }
            }
        case .guardStatement(let conditions, let otherwise):
            for case .expression(let condition) in conditions {
                if let mention = Self.duplicateTest(in: condition, op: "!=") { report(mention, otherwise, &collector) }
            }
        case .switchStatement(_, let cases):
            for item in cases {
                if let mention = item.patterns.first(where: { $0.unwrapped.terminalName == "errSecDuplicateItem" }) {
                    report(mention, item.body, &collector)
                }
            }
        default:
            break
        }
    }

    private func report(_ mention: Expr, _ branch: Block, _ collector: inout FindingCollector) {
        guard !Self.handles(branch) else { return }
        collector.report(
            RuleCatalog.ignoredDuplicateItem, at: mention.position,
            "errSecDuplicateItem is swallowed here: the new value was not stored and the old one stays; update "
                + "the item with SecItemUpdate, or throw or return the failure")
    }

    /// `status == errSecDuplicateItem` (or `!=` for a guard): the constant's position.
    private static func duplicateTest(in condition: Expr, op wanted: String) -> Expr? {
        var found: Expr?
        condition.visit { part in
            guard found == nil, case .binary(let op, let lhs, let rhs) = part.kind, op == wanted else { return }
            found = [lhs, rhs].first { $0.unwrapped.terminalName == "errSecDuplicateItem" }?.unwrapped
        }
        return found
    }

    /// An update (SecItemUpdate or a function named for it), a thrown or returned failure, a result handed to a
    /// callback, or a delete (KL201's business) handles the duplicate.
    private static func handles(_ branch: Block) -> Bool {
        var handled = false
        // A status mapped to an error: `case errSecDuplicateItem: self = .duplicate` in an initializer, an error
        // property set (`lastError = .duplicate`), or the value of a `switch` expression (`case ...: .duplicate`).
        if branch.count == 1, case .expression(let value) = branch[0].kind {
            switch value.unwrapped.kind {
            case .member, .identifier: return true
            default: break
            }
        }
        branch.visitStatements { statement in
            if case .assignment(let target, "=", _) = statement.kind, let name = target.unwrapped.terminalName,
                name == "self" || name.lowercased().contains("error")
            {
                handled = true
            }
            if case .returnStatement(let value?) = statement.kind {
                switch value.unwrapped.kind {
                case .booleanLiteral(true), .nilLiteral: break
                default: handled = true
                }
            }
        }
        branch.visitExpressions { expr in
            guard let name = expr.calleeName else { return }
            if name == "SecItemDelete" || name.lowercased().contains("update") || resultHandlers.contains(name)
                || ["fatalError", "preconditionFailure"].contains(name)
            {
                handled = true
            }
        }
        return handled
    }
}
