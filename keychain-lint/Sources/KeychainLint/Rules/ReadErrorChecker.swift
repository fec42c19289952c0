/// KL202: deleting, resetting or regenerating an item because a read failed with something other than not-found.
package struct ReadErrorChecker: SourceChecker {
    /// Failures a read can report while the item is intact; a handler taken for any of them is destructive.
    private static let intactItemStatuses: [(Int, String)] = [
        (-25308, "errSecInteractionNotAllowed"), (-25293, "errSecAuthFailed"), (-128, "errSecUserCanceled"),
        (-34018, "errSecMissingEntitlement"), (-25291, "errSecNotAvailable"),
    ]

    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        for function in analysis.functions {
            let flow = function.flow
            let statuses = Set(
                flow.statusVariables.filter { flow.calls[$0.value].function == .copyMatching }.map(\.key)
            )
            .union(flow.readStatusVariables)
            let scanner = Scanner(statuses: statuses, index: analysis.index, localFunctions: analysis.localFunctions)
            scanner.scan(function.decl.body, into: &collector)
        }
    }

    private struct Scanner {
        let statuses: Set<String>
        let index: ModuleIndex
        let localFunctions: Set<String>

        func scan(_ block: Block, into collector: inout FindingCollector) {
            for statement in block { scan(statement, into: &collector) }
        }

        func scan(_ statement: Stmt, into collector: inout FindingCollector) {
            switch statement.kind {
            case .ifStatement(let conditions, let then, let otherwise):
                let expressions = conditions.compactMap { condition -> Expr? in
                    if case .expression(let expr) = condition { return expr }
                    return nil
                }
                if !expressions.isEmpty, expressions.count == conditions.count, mentionsStatus(expressions) {
                    for (code, name) in ReadErrorChecker.intactItemStatuses {
                        let taken = evaluate(all: expressions, code: code)
                        if taken == true { reportDestructive(in: then, status: name, into: &collector) }
                        if taken == false, let otherwise {
                            reportDestructive(in: otherwise, status: name, into: &collector)
                        }
                    }
                }
                for arm in statement.liveArms { scan(arm, into: &collector) }
            case .guardStatement(let conditions, let otherwise):
                let expressions = conditions.compactMap(\.expression)
                if expressions.count == conditions.count, mentionsStatus(expressions) {
                    for (code, name) in ReadErrorChecker.intactItemStatuses
                    where evaluate(all: expressions, code: code) == false {
                        reportDestructive(in: otherwise, status: name, into: &collector)
                    }
                }
                scan(otherwise, into: &collector)
            case .switchStatement(let subject, let cases):
                if isStatus(subject) {
                    for (code, name) in ReadErrorChecker.intactItemStatuses {
                        let explicit = cases.first { item in item.patterns.contains { value(of: $0) == code } }
                        if let handler = explicit ?? cases.first(where: { $0.patterns.isEmpty }) {
                            reportDestructive(in: handler.body, status: name, into: &collector)
                        }
                    }
                }
                for item in cases { scan(item.body, into: &collector) }
            case .block(let block), .loop(_, let block):
                scan(block, into: &collector)
            case .compilationConditional(let clauses):
                for clause in clauses { scan(clause.body, into: &collector) }
            default:
                break
            }
        }

        private func reportDestructive(in block: Block, status: String, into collector: inout FindingCollector) {
            // Code that never runs (`if false { ... }`) deletes nothing.
            block.visitLiveExpressions { expr in
                guard case .call = expr.kind, isDestructive(expr) else { return }
                collector.report(
                    RuleCatalog.deleteOnReadError, at: expr.position,
                    "this runs when the read fails with \(status), which leaves the item intact (the device may "
                        + "just be locked); only errSecItemNotFound means the item is missing")
            }
        }

        private func isDestructive(_ call: Expr) -> Bool {
            guard let name = call.calleeName else { return false }
            if ["SecItemDelete", "SecKeyCreateRandomKey", "SecKeyGeneratePair"].contains(name) { return true }
            if index.isDeletingCall(call, localFunctions: localFunctions) { return true }
            // Names such as resetKeychain, clearStoredCredentials, regenerateSigningKey.
            let words = SecretNames.words(name)
            let subjects: Set<String> = [
                "keychain", "token", "tokens", "credential", "credentials", "password", "secret", "key", "keys", "item",
                "items", "identity",
            ]
            let verbs: Set<String> = ["delete", "remove", "reset", "clear", "wipe", "generate", "regenerate", "purge"]
            return words.contains(where: subjects.contains) && words.contains(where: verbs.contains)
        }

        private func mentionsStatus(_ expressions: [Expr]) -> Bool {
            var found = false
            for expr in expressions { expr.visit { if isStatus($0) { found = true } } }
            return found
        }

        private func isStatus(_ expr: Expr) -> Bool {
            let inner = expr.unwrapped
            if case .identifier(let name) = inner.kind { return statuses.contains(name) }
            // `result.error`, `result.status` of a wrapper's read result.
            if case .member(let base?, let member) = inner.kind, case .identifier(let name) = base.unwrapped.kind,
                statuses.contains(name), ["error", "status", "osStatus", "code", "result"].contains(member)
            {
                return true
            }
            return inner.calleeName == KeychainFunction.copyMatching.rawValue
        }

        /// The OSStatus a constant stands for.
        private func value(of expr: Expr) -> Int? {
            let inner = expr.unwrapped
            switch inner.kind {
            case .integerLiteral(let number): return number
            case .prefix("-", let operand):
                if case .integerLiteral(let number?) = operand.unwrapped.kind { return -number }
                return nil
            default:
                return index.resolver.symbol(of: inner, locals: [:]).flatMap { KeychainSymbols.statusValues[$0] }
            }
        }

        private func evaluate(all expressions: [Expr], code: Int) -> Bool? {
            guard let first = expressions.first else { return nil }
            var result = evaluate(first, code: code)
            for expr in expressions.dropFirst() { result = and(result, evaluate(expr, code: code)) }
            return result
        }

        /// `&&` of what the status decides: a branch that the status opens and another condition may also open is
        /// taken for that status (the other condition is assumed satisfiable).
        private func and(_ lhs: Bool?, _ rhs: Bool?) -> Bool? {
            if lhs == false || rhs == false { return false }
            if lhs == nil && rhs == nil { return nil }
            return true
        }

        /// Whether `expr` is true when the read returned `code`; nil when it depends on something else.
        private func evaluate(_ expr: Expr, code: Int) -> Bool? {
            let inner = expr.unwrapped
            switch inner.kind {
            case .binary("&&", let lhs, let rhs):
                return and(evaluate(lhs, code: code), evaluate(rhs, code: code))
            case .binary("||", let lhs, let rhs):
                let left = evaluate(lhs, code: code)
                let right = evaluate(rhs, code: code)
                if left == true || right == true { return true }
                if left == false && right == false { return false }
                return nil
            case .binary(let op, let lhs, let rhs) where op == "==" || op == "!=":
                let constant: Int?
                if isStatus(lhs) {
                    constant = value(of: rhs)
                } else if isStatus(rhs) {
                    constant = value(of: lhs)
                } else {
                    return nil
                }
                // `result.error != nil`: any failure.
                if case .nilLiteral = (isStatus(lhs) ? rhs : lhs).unwrapped.kind { return op == "!=" }
                guard let constant else { return nil }
                return (constant == code) == (op == "==")
            case .prefix("!", let operand):
                return evaluate(operand, code: code).map { !$0 }
            default:
                return nil
            }
        }
    }
}
