/// A constant written in the file, that a value was traced back to.
package struct ConstantOrigin: Sendable, Hashable {
    package var name: String
    package var position: SourcePosition
}

/// Traces a value within one file back to the constants it can hold: through local `let`/`var`s, stored and
/// computed properties (a `switch self` of an enum included), zero-argument functions, and parameters whose
/// callers in the file pass one.
///
/// The answer is every constant the value can hold, each of which `isLeaf` accepts, or nil when the value may
/// be anything else: a name bound on one branch to something unknown, the other arm of a ternary, a property
/// that is also set from input. A parameter is the exception: callers whose argument cannot be traced are left
/// out, since a caller that passes a constant uses it whatever the others do; with no such caller it is nil.
package final class ConstantOrigins {
    /// One body that names can be bound in: a function of the file, the top-level code, or the initializers of
    /// the file's properties.
    private struct Context {
        var function: FunctionDecl?
        var body: Block
        var scan: CryptoScan

        init(function: FunctionDecl?, body: Block) {
            self.function = function
            self.body = body
            scan = CryptoScan(body)
        }
    }

    /// An assignment to a name that may be a property: `padding = x`, `self.padding = x`.
    private struct PropertyAssignment {
        var value: Expr
        var context: Int
        var offset: Int
    }

    private let unit: SourceUnit
    private let contexts: [Context]
    /// Every call of the file with the index of the body it is made in.
    package let calls: [(expr: Expr, context: Int)]
    private var assignments: [String: [PropertyAssignment]] = [:]
    /// Steps left for the current question, so files that call themselves in circles stay fast.
    private var budget = 0
    private static let stepsPerQuestion = 4000
    private static let maximumDepth = 12

    package init(unit: SourceUnit) {
        self.unit = unit
        var contexts = unit.functions.map { Context(function: $0, body: $0.body) }
        contexts.append(Context(function: nil, body: unit.topLevel))
        // Closures stored in properties are no function of the file, but their calls count as much.
        let initializers = unit.properties.compactMap { property in
            property.initializer.map { Stmt(.expression($0), at: $0.position) }
        }
        contexts.append(Context(function: nil, body: initializers))
        self.contexts = contexts
        calls = contexts.enumerated().flatMap { index, context in
            context.scan.calls.map { (expr: $0.expr, context: index) }
        }
        for (index, context) in contexts.enumerated() {
            collectAssignments(context.body, context: index)
        }
    }

    /// The constants `expr`, written in body `context`, can hold; see the type's description.
    package func origins(of expr: Expr, in context: Int, isLeaf: (String) -> Bool) -> [ConstantOrigin]? {
        budget = Self.stepsPerQuestion
        return resolve(expr, context, at: expr.position.offset, isLeaf, depth: 0)
    }

    // MARK: Expressions

    private func resolve(
        _ expr: Expr, _ context: Int?, at offset: Int, _ isLeaf: (String) -> Bool, depth: Int
    ) -> [ConstantOrigin]? {
        budget -= 1
        guard depth < Self.maximumDepth, budget > 0 else { return nil }
        let expr = expr.unwrapped
        switch expr.kind {
        case .identifier(let name):
            if let context, let local = local(name, context, before: offset, isLeaf, depth: depth) { return local }
            if let context, let index = contexts[context].function?.parameters.firstIndex(of: name) {
                return parameter(index, of: context, isLeaf, depth: depth)
            }
            if let property = property(name, selfCases: nil, isLeaf, depth: depth) { return property }
            return isLeaf(name) ? [ConstantOrigin(name: name, position: expr.position)] : nil
        case .member(let base, let name):
            guard let base = base?.unwrapped else {
                return isLeaf(name) ? [ConstantOrigin(name: name, position: expr.position)] : nil
            }
            let owner = base.terminalName ?? ""
            if owner == "self" || owner == "Self" {
                return property(name, selfCases: nil, isLeaf, depth: depth)
            }
            if Self.isTypeName(base) {
                if isLeaf(name) { return [ConstantOrigin(name: name, position: expr.position)] }
                return property(name, selfCases: nil, isLeaf, depth: depth)
            }
            // `digestType.padding`: the property's `switch self` picks the arm of the case `digestType` holds.
            let cases = resolve(base, context, at: offset, { _ in true }, depth: depth + 1)?.map(\.name)
            return property(name, selfCases: cases, isLeaf, depth: depth)
        case .call(let callee, let arguments, let closures) where arguments.isEmpty && closures.isEmpty:
            // `algorithm()` or `type.algorithm()`: a function without parameters is read like a property.
            return resolve(callee, context, at: offset, isLeaf, depth: depth + 1)
        case .ternary(_, let then, let otherwise):
            return all([then, otherwise].map { resolve($0, context, at: offset, isLeaf, depth: depth + 1) })
        case .closure(let block):
            // A `switch` used as an expression is lowered into a closure of that one statement.
            guard block.count == 1, case .switchStatement = block[0].kind else { return nil }
            return value(of: block, context, selfCases: nil, isLeaf, depth: depth + 1)
        default:
            return nil
        }
    }

    /// `SecPadding`, `SecKeyAlgorithm`, `Signature.DigestType`: a type, by Swift's and Objective-C's naming.
    private static func isTypeName(_ expr: Expr) -> Bool {
        guard let name = expr.terminalName, let first = name.first else { return false }
        return first.isUppercase && name != "Self"
    }

    /// The values of every alternative, or nil when one of them is unknown.
    private func all(_ alternatives: [[ConstantOrigin]?]) -> [ConstantOrigin]? {
        var result: [ConstantOrigin] = []
        for alternative in alternatives {
            guard let alternative else { return nil }
            result += alternative.filter { !result.contains($0) }
        }
        return result.isEmpty ? nil : result
    }

    // MARK: Locals and parameters

    /// The local `name` as seen at `offset`: every value bound to it before, since a branch may have bound any
    /// of them. Nil when the name is not bound before `offset` in this body (it may be a parameter or a
    /// property); `.some(nil)` when it is but one of its values is unknown.
    private func local(
        _ name: String, _ context: Int, before offset: Int, _ isLeaf: (String) -> Bool, depth: Int
    ) -> [ConstantOrigin]?? {
        guard let bindings = contexts[context].scan.bindings[name]?.filter({ $0.offset < offset }),
            !bindings.isEmpty
        else { return nil }
        return .some(all(bindings.map { resolve($0.value, context, at: $0.offset, isLeaf, depth: depth + 1) }))
    }

    /// The constants a parameter is given by the calls the file makes to its function.
    private func parameter(
        _ index: Int, of context: Int, _ isLeaf: (String) -> Bool, depth: Int
    ) -> [ConstantOrigin]? {
        guard let function = contexts[context].function, index < function.labels.count,
            !["init", "subscript", "deinit"].contains(function.name),
            unit.functions.filter({ $0.signature == function.signature }).count == 1
        else { return nil }
        var result: [ConstantOrigin] = []
        for (caller, callerContext) in calls where caller.calleeName == function.name {
            guard let argument = Self.argument(index, of: function, in: caller),
                let value = resolve(argument, callerContext, at: caller.position.offset, isLeaf, depth: depth + 1)
            else { continue }
            result += value.filter { !result.contains($0) }
        }
        return result.isEmpty ? nil : result
    }

    /// The argument a call gives to parameter `index`, matching labels in order and allowing defaulted
    /// parameters to be left out; nil when the call does not match the declaration or leaves that one out.
    private static func argument(_ index: Int, of function: FunctionDecl, in call: Expr) -> Expr? {
        let arguments = call.callArguments
        var next = 0
        var found: Expr?
        for (position, label) in function.labels.enumerated() {
            let expected: String? = label == "_" ? nil : label
            if next < arguments.count, arguments[next].label == expected {
                if position == index { found = arguments[next].value }
                next += 1
            } else if position == index {
                return nil
            }
        }
        return next == arguments.count ? found : nil
    }

    // MARK: Properties

    /// Every value a property (stored or computed) or a function without parameters named `name` can yield; nil
    /// when the file declares none by that name or one of them is unknown.
    private func property(
        _ name: String, selfCases: [String]?, _ isLeaf: (String) -> Bool, depth: Int
    ) -> [ConstantOrigin]? {
        var alternatives: [[ConstantOrigin]?] = []
        for stored in unit.properties where stored.name == name {
            // A `let` with a value keeps it; anything else may be set again anywhere in the file.
            var written = [[ConstantOrigin]?]()
            if let initializer = stored.initializer {
                written.append(resolve(initializer, nil, at: initializer.position.offset, isLeaf, depth: depth + 1))
            }
            if !(stored.isConstant && stored.initializer != nil) {
                written += (assignments[name] ?? []).map {
                    resolve($0.value, $0.context, at: $0.offset, isLeaf, depth: depth + 1)
                }
            }
            // A computed property is declared without a value and never assigned: its getter answers below.
            if !written.isEmpty { alternatives.append(all(written)) }
        }
        for (index, context) in contexts.enumerated() {
            guard let function = context.function, function.name == name, function.parameters.isEmpty else {
                continue
            }
            alternatives.append(value(of: function.body, index, selfCases: selfCases, isLeaf, depth: depth + 1))
        }
        return alternatives.isEmpty ? nil : all(alternatives)
    }

    /// What a getter or a function body returns: one expression, or a `switch`, whose arms are picked by the
    /// cases `self` is known to be (every arm when it is not known).
    private func value(
        of body: Block, _ context: Int?, selfCases: [String]?, _ isLeaf: (String) -> Bool, depth: Int
    ) -> [ConstantOrigin]? {
        guard body.count == 1 else { return nil }
        switch body[0].kind {
        case .returnStatement(let returned?), .expression(let returned):
            return resolve(returned, context, at: returned.position.offset, isLeaf, depth: depth + 1)
        case .switchStatement(let subject, let cases):
            var arms = cases
            if let selfCases, subject.unwrapped.terminalName == "self" {
                var picked: [SwitchCase] = []
                for name in selfCases {
                    // Only an arm that names the case: a `default` may stand for cases of another type.
                    guard let arm = cases.first(where: { $0.patterns.contains { $0.unwrapped.terminalName == name } })
                    else { return nil }
                    picked.append(arm)
                }
                arms = picked
            }
            return all(arms.map { value(of: $0.body, context, selfCases: nil, isLeaf, depth: depth + 1) })
        default:
            return nil
        }
    }

    /// Assignments whose target may be a property, anywhere in a body, closures included.
    private func collectAssignments(_ block: Block, context: Int) {
        block.visitStatements { statement in
            guard case .assignment(let written, _, let value) = statement.kind else { return }
            var name: String?
            switch written.unwrapped.kind {
            case .identifier(let identifier): name = identifier
            case .member(let base?, let member) where base.unwrapped.terminalName == "self": name = member
            case .member(let base?, let member) where Self.isTypeName(base.unwrapped): name = member
            default: name = nil
            }
            guard let name else { return }
            assignments[name, default: []].append(
                PropertyAssignment(value: value, context: context, offset: statement.position.offset))
        }
    }
}
