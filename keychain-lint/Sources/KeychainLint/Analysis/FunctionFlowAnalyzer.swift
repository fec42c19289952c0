/// Walks a function body in order, following dictionaries from their creation to the SecItem calls that use them.
///
/// The analysis is path-aware but not path-sensitive: facts written in exclusive branches are kept together and
/// tagged with their branch path, and a call sees only the facts that can hold on its own path.
package final class FunctionFlowAnalyzer {
    private let index: ModuleIndex
    private let localFunctions: Set<String>
    private var bindings: [String: TrackedDictionary] = [:]
    private var dictionaries: [TrackedDictionary] = []
    private var calls: [KeychainCall] = []
    private var statusVariables: [String: Int] = [:]
    private var readStatusVariables: Set<String> = []
    private var locals: [String: Expr] = [:]
    private var path = BranchPath()
    private var compilationConditions: [String] = []
    private var nextBranch = 0
    /// The branch id of the `if` or `guard` statement walked last at the current level.
    private var lastBranchOfStatement = 0

    /// - Parameter localFunctions: signatures declared in the same file, which are trusted to be the callee.
    package init(index: ModuleIndex, localFunctions: Set<String> = []) {
        self.index = index
        self.localFunctions = localFunctions
    }

    package func analyze(_ body: Block) -> FunctionFlow {
        walk(body)
        return FunctionFlow(
            calls: calls, dictionaries: dictionaries, statusVariables: statusVariables,
            readStatusVariables: readStatusVariables, locals: locals)
    }

    // MARK: Statements

    private func walk(_ block: Block) {
        let saved = path
        for statement in block {
            walk(statement)
            // Code after `if x { return }` runs only on the other arm; after a guard, only on its passing arm.
            switch statement.kind {
            case .ifStatement(_, let then, let otherwise):
                let thenExits = then.exits
                let otherwiseExits = otherwise?.exits ?? false
                if thenExits != otherwiseExits {
                    path = path.appending(branch: lastBranchOfStatement, arm: thenExits ? 1 : 0)
                }
            case .guardStatement:
                path = path.appending(branch: lastBranchOfStatement, arm: 0)
            default:
                break
            }
        }
        path = saved
    }

    private func withArm(_ branch: Int, _ arm: Int, _ body: () -> Void) {
        let saved = path
        path = path.appending(branch: branch, arm: arm)
        body()
        path = saved
    }

    private func newBranch() -> Int {
        nextBranch += 1
        return nextBranch
    }

    private func walk(_ statement: Stmt) {
        switch statement.kind {
        case .expression(let expr):
            visit(expr)
        case .variable(let decl):
            if let value = decl.initializer {
                bind(decl.name, to: value, typeName: decl.typeName)
            } else if Self.looksLikeDictionaryType(decl.typeName) {
                track(TrackedDictionary(facts: [], isComplete: false, variable: decl.name), as: decl.name)
            }
        case .assignment(let target, let op, let value):
            assign(target: target, op: op, value: value)
        case .ifStatement(let conditions, let then, let otherwise):
            visit(conditions)
            let branch = newBranch()
            // An arm that a literal condition never takes (`if false { ... }`, the `else` of `if true`) is dead code:
            // nothing written or called there reaches an item.
            let taken = conditions.literalValue
            if taken != false { withArm(branch, 0) { walk(then) } }
            if let otherwise, taken != true { withArm(branch, 1) { walk(otherwise) } }
            lastBranchOfStatement = branch
        case .guardStatement(let conditions, let otherwise):
            visit(conditions)
            let branch = newBranch()
            withArm(branch, 1) { walk(otherwise) }
            lastBranchOfStatement = branch
        case .switchStatement(let subject, let cases):
            visit(subject)
            let branch = newBranch()
            for (arm, item) in cases.enumerated() { withArm(branch, arm) { walk(item.body) } }
        case .compilationConditional(let clauses):
            let branch = newBranch()
            for (arm, clause) in clauses.enumerated() {
                compilationConditions.append(clause.condition ?? "#else")
                withArm(branch, arm) { walk(clause.body) }
                compilationConditions.removeLast()
            }
        case .loop(let conditions, let body):
            conditions.forEach(visit)
            walk(body)
        case .returnStatement(let value):
            if let value { visit(value) }
        case .block(let block):
            walk(block)
        case .function:
            break
        case .other(let parts):
            parts.forEach(visit)
        }
    }

    private func visit(_ conditions: [Condition]) {
        for condition in conditions {
            switch condition {
            case .expression(let expr): visit(expr)
            case .binding(let name, let value):
                guard let value else { continue }
                locals[name] = value
                visit(value)
            }
        }
    }

    private func track(_ dictionary: TrackedDictionary, as name: String?) {
        dictionaries.append(dictionary)
        if let name { bindings[name] = dictionary }
    }

    /// `let name = value` or `name = value`.
    private func bind(_ name: String, to value: Expr, typeName: String?) {
        let inner = value.unwrapped
        if case .dictionary(let entries) = inner.kind {
            track(TrackedDictionary(facts: facts(of: entries), isComplete: true, variable: name), as: name)
            return
        }
        if let source = copiedDictionary(inner) {
            let copy = TrackedDictionary(
                facts: source.facts, isComplete: source.isComplete, variable: name,
                ancestors: [source.variable].compactMap { $0 } + source.ancestors)
            track(copy, as: name)
            return
        }
        if Self.isEmptyDictionaryConstruction(inner) {
            track(TrackedDictionary(facts: [], isComplete: true, variable: name), as: name)
            return
        }
        bindings[name] = nil
        locals[name] = value
        let before = calls.count
        visit(value)
        if calls.count > before, inner.calleeName.flatMap(KeychainFunction.init(rawValue:)) != nil {
            statusVariables[name] = before
        }
        // A variable that ever held a read's status stays one, even after `status = SecItemAdd(...)` reuses it.
        if inner.calleeName == KeychainFunction.copyMatching.rawValue
            || index.isReadingCall(inner, localFunctions: localFunctions)
        {
            readStatusVariables.insert(name)
        }
        if Self.looksLikeDictionaryType(typeName) {
            track(TrackedDictionary(facts: [], isComplete: false, variable: name), as: name)
        }
    }

    private func assign(target: Expr, op: String, value: Expr) {
        let target = target.unwrapped
        if case .subscriptAccess(let base, let arguments) = target.kind, arguments.count == 1,
            let name = base.unwrapped.terminalName, let dictionary = bindings[name]
        {
            write(arguments[0].value, value, into: dictionary)
            return
        }
        if op == "=", case .identifier(let name) = target.kind {
            bind(name, to: value, typeName: nil)
            return
        }
        visit(target)
        visit(value)
    }

    private func write(_ key: Expr, _ value: Expr, into dictionary: TrackedDictionary) {
        let symbol = index.resolver.symbol(of: key, locals: locals)
        if case .nilLiteral = value.unwrapped.kind {
            dictionary.facts.removeAll { $0.key != nil && $0.key == symbol }
            return
        }
        dictionary.facts.append(DictionaryFact(key: symbol, keyExpr: key, value: value, path: path))
        visit(value)
    }

    private func facts(of entries: [DictionaryEntry]) -> [DictionaryFact] {
        entries.map { entry in
            visit(entry.value)
            return DictionaryFact(
                key: index.resolver.symbol(of: entry.key, locals: locals), keyExpr: entry.key, value: entry.value,
                path: path)
        }
    }

    // MARK: Expressions

    private func visit(_ expr: Expr) {
        switch expr.kind {
        case .call(let callee, let arguments, let closures):
            visitCall(expr, callee: callee, arguments: arguments)
            closures.forEach(walk)
        case .dictionary(let entries):
            let anonymous = TrackedDictionary(facts: facts(of: entries), isComplete: true, variable: nil)
            anonymous.escapes = true
            track(anonymous, as: nil)
        case .identifier(let name):
            bindings[name]?.escapes = true
        case .subscriptAccess(let base, let arguments):
            if base.unwrapped.terminalName.flatMap({ bindings[$0] }) == nil { visit(base) }
            for argument in arguments { visit(argument.value) }
        case .closure(let block):
            walk(block)
        case .stringLiteral(_, let interpolations):
            for interpolation in interpolations { visit(interpolation.value) }
        default:
            for child in expr.children { visit(child) }
        }
    }

    private func visitCall(_ expr: Expr, callee: Expr, arguments: [Argument]) {
        if let name = callee.unwrapped.terminalName, let function = KeychainFunction(rawValue: name) {
            recordKeychainCall(function, expr, arguments)
            return
        }
        if case .member(let base?, let method) = callee.unwrapped.kind, let name = base.unwrapped.terminalName,
            let dictionary = bindings[name], mutate(dictionary, method: method, arguments: arguments)
        {
            return
        }
        if let name = callee.unwrapped.terminalName, name.hasPrefix("CFDictionary"), arguments.count == 3,
            let target = arguments[0].value.unwrapped.terminalName, let dictionary = bindings[target]
        {
            write(arguments[1].value, arguments[2].value, into: dictionary)
            return
        }
        if index.isDeletingCall(expr, localFunctions: localFunctions) {
            calls.append(
                KeychainCall(
                    function: .delete, call: expr, path: path, sequence: calls.count, isWrapperDelete: true))
        }
        if case .member(let base?, _) = callee.unwrapped.kind { visit(base) }
        for argument in arguments { visit(argument.value) }
    }

    /// Applies `setObject(_:forKey:)`, `removeValue(forKey:)`, `merge(_:)` and friends; false for other methods.
    private func mutate(_ dictionary: TrackedDictionary, method: String, arguments: [Argument]) -> Bool {
        switch method {
        case "setObject", "setValue", "updateValue":
            guard arguments.count == 2, let key = arguments.first(where: { $0.label == "forKey" }) else { return false }
            write(key.value, arguments[0].value, into: dictionary)
        case "removeValue", "removeObject", "removeObjectForKey":
            let symbol = arguments.first.flatMap { index.resolver.symbol(of: $0.value, locals: locals) }
            dictionary.facts.removeAll { $0.key != nil && $0.key == symbol }
        case "merge", "addEntries", "addEntriesFromDictionary":
            if let other = arguments.first.flatMap({ snapshot($0.value, role: nil) }) {
                dictionary.facts += other.facts
                dictionary.isComplete = dictionary.isComplete && other.isComplete
            } else {
                dictionary.isComplete = false
            }
        default:
            return false
        }
        return true
    }

    private func recordKeychainCall(_ function: KeychainFunction, _ expr: Expr, _ arguments: [Argument]) {
        var call = KeychainCall(function: function, call: expr, path: path, sequence: calls.count)
        call.compilationConditions = compilationConditions
        var consumed = 0
        switch function {
        case .add:
            call.query = arguments.first.flatMap { snapshot($0.value, role: .write) }
            consumed = 1
        case .copyMatching:
            call.query = arguments.first.flatMap { snapshot($0.value, role: .search) }
            if arguments.count > 1, case .prefix("&", let target) = arguments[1].value.kind {
                call.resultVariable = target.unwrapped.terminalName
            } else if arguments.count > 1, case .prefix("&", let target) = arguments[1].value.unwrapped.kind {
                call.resultVariable = target.unwrapped.terminalName
            }
            consumed = 2
        case .update:
            call.query = arguments.first.flatMap { snapshot($0.value, role: .search) }
            call.attributes = arguments.count > 1 ? snapshot(arguments[1].value, role: .write) : nil
            consumed = 2
        case .delete:
            call.query = arguments.first.flatMap { snapshot($0.value, role: .search) }
            consumed = 1
        case .createAccessControl:
            consumed = 0
        }
        for argument in arguments.dropFirst(consumed) { visit(argument.value) }
        calls.append(call)
    }

    /// The dictionary an argument denotes at this point of the walk, recording how the call uses it.
    private func snapshot(_ expr: Expr, role: DictionaryRole?) -> DictionarySnapshot? {
        let inner = expr.unwrapped
        var dictionary: TrackedDictionary?
        if let name = inner.terminalName, case .identifier = inner.kind {
            dictionary = bindings[name]
        } else if case .dictionary(let entries) = inner.kind {
            let literal = TrackedDictionary(facts: facts(of: entries), isComplete: true, variable: nil)
            track(literal, as: nil)
            dictionary = literal
        } else if let source = copiedDictionary(inner) {
            dictionary = source
        }
        guard let dictionary else {
            visit(expr)
            return nil
        }
        if let role { dictionary.uses.append(role) }
        let visible = dictionary.facts.filter { $0.path.canRunTogether(with: path) }
        return DictionarySnapshot(
            facts: visible, isComplete: dictionary.isComplete, variable: dictionary.variable,
            ancestors: dictionary.ancestors, readPath: path)
    }

    /// The tracked dictionary that `NSMutableDictionary(dictionary: q)`, `[q mutableCopy]` or `q` copies.
    private func copiedDictionary(_ expr: Expr) -> TrackedDictionary? {
        if case .identifier(let name) = expr.kind { return bindings[name] }
        guard case .call(let callee, let arguments, _) = expr.kind else { return nil }
        if arguments.isEmpty, case .member(let base?, let name) = callee.unwrapped.kind,
            name == "mutableCopy" || name == "copy", let source = base.unwrapped.terminalName
        {
            return bindings[source]
        }
        guard arguments.count == 1, let name = callee.unwrapped.terminalName,
            ["NSMutableDictionary", "NSDictionary", "dictionaryWithDictionary", "Dictionary"].contains(name),
            arguments[0].label == nil || arguments[0].label == "dictionary"
        else { return nil }
        let argument = arguments[0].value.unwrapped
        if case .dictionary(let entries) = argument.kind {
            let literal = TrackedDictionary(facts: facts(of: entries), isComplete: true, variable: nil)
            dictionaries.append(literal)
            return literal
        }
        return argument.terminalName.flatMap { bindings[$0] }
    }

    private static func isEmptyDictionaryConstruction(_ expr: Expr) -> Bool {
        if case .dictionary(let entries) = expr.kind { return entries.isEmpty }
        guard case .call(let callee, let arguments, _) = expr.kind, arguments.isEmpty else { return false }
        switch callee.unwrapped.kind {
        case .dictionary: return true
        case .identifier(let name):
            return name == "NSMutableDictionary" || name == "Dictionary" || (name.hasPrefix("[") && name.contains(":"))
        case .member(let base?, let name):
            return ["dictionary", "new", "init"].contains(name)
                && ["NSMutableDictionary", "NSDictionary"].contains(base.rootName ?? "")
        default: return false
        }
    }

    private static func looksLikeDictionaryType(_ typeName: String?) -> Bool {
        guard let typeName else { return false }
        return typeName.contains("Dictionary") || (typeName.hasPrefix("[") && typeName.contains(":"))
    }
}
