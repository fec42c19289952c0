/// Traces a value within one file back to the constants it can hold: through local `let`/`var`s (the bindings that
/// can reach the read: made on a path to it, not in an arm a literal condition never takes, not overwritten on every
/// path since), both arms of a conditional, `??` defaults, stored and computed properties (a `switch self` of an
/// enum included), functions without parameters (what their `return`s give), and parameters whose callers in the
/// file pass one. Given the module's `ModuleIndex.namedValues`, a property or function the file does not declare is
/// looked up there.
///
/// `possibleValues` answers every constant the value can hold, each a name `isLeaf` accepts, and whether it may
/// also be something else: a name bound on one branch to something unknown, a constant `isLeaf` rejects, a
/// property that is also set from input. `origins` answers only when the constants are all it can be. A parameter
/// is the exception: callers whose argument cannot be traced are left out, since a caller that passes a constant
/// uses it whatever the others do; with no such caller it is unknown.
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
    /// What the module's properties and functions without parameters give, for names this file does not declare.
    private let moduleValues: [String: PossibleValues]
    /// Steps left for the current question, so files that call themselves in circles stay fast.
    private var budget = 0
    private static let stepsPerQuestion = 4000
    private static let maximumDepth = 12

    package init(unit: SourceUnit, moduleValues: [String: PossibleValues] = [:]) {
        self.unit = unit
        self.moduleValues = moduleValues
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

    /// Every value `expr`, written in body `context`, can hold; see the type's description. The bodies are the
    /// file's functions in order, then its top-level code; nil stands for a property's initializer.
    package func possibleValues(of expr: Expr, in context: Int?, isLeaf: (String) -> Bool) -> PossibleValues {
        budget = Self.stepsPerQuestion
        return resolve(expr, context, at: expr.position.offset, isLeaf, depth: 0)
    }

    /// The constants `expr`, written in body `context`, can hold, when it can hold nothing else.
    package func origins(of expr: Expr, in context: Int, isLeaf: (String) -> Bool) -> [ConstantOrigin]? {
        possibleValues(of: expr, in: context, isLeaf: isLeaf).onlyConstants
    }

    /// The values bound to the local `name` that can reach its read at `use` in body `context`; nil when the name is
    /// not bound there before it.
    package func reachingBindings(ofLocal name: String, in context: Int, readAt use: Int) -> [Expr]? {
        contexts[context].scan.reachingBindings(of: name, before: use, readAt: use)?.map(\.value)
    }

    /// Every value the file's properties or functions without parameters named `name` can give; nil when the file
    /// declares none.
    package func possibleValues(ofDeclared name: String, isLeaf: (String) -> Bool) -> PossibleValues? {
        budget = Self.stepsPerQuestion
        return property(name, selfCases: nil, isLeaf, depth: 0)
    }

    // MARK: Expressions

    private func resolve(
        _ expr: Expr, _ context: Int?, at offset: Int, _ isLeaf: (String) -> Bool, depth: Int
    ) -> PossibleValues {
        budget -= 1
        guard depth < Self.maximumDepth, budget > 0 else { return .unknown }
        let expr = expr.unwrapped
        func each(_ alternatives: [Expr]) -> PossibleValues {
            .anyOf(alternatives.map { resolve($0, context, at: offset, isLeaf, depth: depth + 1) })
        }
        switch expr.kind {
        case .identifier(let name):
            if let context,
                let local = local(name, context, before: offset, readAt: expr.position.offset, isLeaf, depth: depth)
            {
                return local
            }
            if let context, let index = contexts[context].function?.parameters.firstIndex(of: name) {
                return parameter(index, of: context, isLeaf, depth: depth)
            }
            return declared(name, selfCases: nil, isLeaf, depth: depth) ?? leaf(name, expr, qualifier: nil, isLeaf)
        case .member(let base, let name):
            guard let base = base?.unwrapped else { return leaf(name, expr, qualifier: nil, isLeaf) }
            let owner = base.terminalName ?? ""
            if owner == "self" || owner == "Self" {
                return declared(name, selfCases: nil, isLeaf, depth: depth) ?? .unknown
            }
            if Self.isTypeName(base) {
                if isLeaf(name) { return leaf(name, expr, qualifier: owner, isLeaf) }
                return declared(name, selfCases: nil, isLeaf, depth: depth) ?? .unknown
            }
            // `digestType.padding`: the property's `switch self` picks the arm of the case `digestType` holds.
            let cases = resolve(base, context, at: offset, { _ in true }, depth: depth + 1).onlyConstants?.map(\.name)
            return declared(name, selfCases: cases, isLeaf, depth: depth) ?? .unknown
        case .call(let callee, let arguments, let closures) where arguments.isEmpty && closures.isEmpty:
            // `algorithm()` or `type.algorithm()`: a function without parameters is read like a property.
            return resolve(callee, context, at: offset, isLeaf, depth: depth + 1)
        case .call(let callee, let arguments, _)
        where arguments.count == 1
            && (arguments[0].label == nil
                && ConstantResolver.conversionFunctions.contains(callee.unwrapped.terminalName ?? "")
                || callee.unwrapped.terminalName == "NSNumber"):
            // `String(kSecAttrAccessibleAlways)` is the constant it converts; `NSNumber(value: true)` the Boolean.
            return each([arguments[0].value])
        case .integerLiteral(let value?):
            // A number (a match limit) is a leaf by its digits.
            return leaf(String(value), expr, qualifier: nil, isLeaf)
        case .booleanLiteral(let value):
            // `true` and `false` (Objective-C's `YES` and `NO` too) are leaves by those names.
            return leaf(value ? "true" : "false", expr, qualifier: nil, isLeaf)
        case .forceUnwrap(let inner):
            return each([inner])
        case .ternary(_, let then, let otherwise):
            if let sides = expr.literalConditionSides { return each([sides.taken]) }
            return each([then, otherwise])
        case .binary("??", let value, let fallback):
            return each([value, fallback])
        case .array(let elements):
            // An option set written as a list (`[.biometryAny, .or, .devicePasscode]`) holds each of its members.
            return each(elements)
        case .closure(let block):
            // An `if` or `switch` used as an expression is lowered into a closure of that one statement.
            return value(of: block, context, selfCases: nil, isLeaf, depth: depth + 1)
        default:
            return .unknown
        }
    }

    private func leaf(_ name: String, _ expr: Expr, qualifier: String?, _ isLeaf: (String) -> Bool) -> PossibleValues {
        guard isLeaf(name) else { return .unknown }
        return .constant(ConstantOrigin(name: name, position: expr.position, qualifier: qualifier))
    }

    /// `SecPadding`, `SecKeyAlgorithm`, `Signature.DigestType`: a type, by Swift's and Objective-C's naming.
    private static func isTypeName(_ expr: Expr) -> Bool {
        guard let name = expr.terminalName, let first = name.first else { return false }
        return first.isUppercase && name != "Self"
    }

    // MARK: Locals and parameters

    /// The local `name` as read at `use`, before `offset`: every value bound to it that can reach the read, since
    /// a branch may have bound any of them. Nil when the name is not bound before `offset` in this body (it may be a
    /// parameter or a property).
    private func local(
        _ name: String, _ context: Int, before offset: Int, readAt use: Int, _ isLeaf: (String) -> Bool, depth: Int
    ) -> PossibleValues? {
        guard let bindings = contexts[context].scan.reachingBindings(of: name, before: offset, readAt: use) else {
            return nil
        }
        return .anyOf(bindings.map { resolve($0.value, context, at: $0.offset, isLeaf, depth: depth + 1) })
    }

    /// The constants a parameter is given by the calls the file makes to its function.
    private func parameter(
        _ index: Int, of context: Int, _ isLeaf: (String) -> Bool, depth: Int
    ) -> PossibleValues {
        guard let function = contexts[context].function, index < function.labels.count,
            !["init", "subscript", "deinit"].contains(function.name),
            unit.functions.filter({ $0.signature == function.signature }).count == 1
        else { return .unknown }
        var result: [ConstantOrigin] = []
        for (caller, callerContext) in calls where caller.calleeName == function.name {
            guard let argument = Self.argument(index, of: function, in: caller),
                let value = resolve(argument, callerContext, at: caller.position.offset, isLeaf, depth: depth + 1)
                    .onlyConstants
            else { continue }
            result += value.filter { !result.contains($0) }
        }
        return result.isEmpty ? .unknown : PossibleValues(constants: result, includesOthers: false)
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

    /// What `name` gives: a property or function without parameters of the file, or else of the module; nil when
    /// neither declares one.
    private func declared(
        _ name: String, selfCases: [String]?, _ isLeaf: (String) -> Bool, depth: Int
    ) -> PossibleValues? {
        property(name, selfCases: selfCases, isLeaf, depth: depth) ?? moduleValues[name]?.keeping(isLeaf)
    }

    /// Every value a property (stored or computed) or a function without parameters named `name` can yield; nil
    /// when the file declares none by that name.
    private func property(
        _ name: String, selfCases: [String]?, _ isLeaf: (String) -> Bool, depth: Int
    ) -> PossibleValues? {
        var alternatives: [PossibleValues] = []
        for stored in unit.properties where stored.name == name {
            // A `let` with a value keeps it; anything else may be set again anywhere in the file.
            var written: [PossibleValues] = []
            if let initializer = stored.initializer {
                written.append(resolve(initializer, nil, at: initializer.position.offset, isLeaf, depth: depth + 1))
            }
            if !(stored.isConstant && stored.initializer != nil) {
                written += (assignments[name] ?? []).map {
                    resolve($0.value, $0.context, at: $0.offset, isLeaf, depth: depth + 1)
                }
            }
            // A computed property is declared without a value and never assigned: its getter answers below.
            if !written.isEmpty { alternatives.append(.anyOf(written)) }
        }
        for (index, context) in contexts.enumerated() {
            guard let function = context.function, function.name == name, function.parameters.isEmpty else {
                continue
            }
            alternatives.append(value(of: function.body, index, selfCases: selfCases, isLeaf, depth: depth + 1))
        }
        guard !alternatives.isEmpty else { return nil }
        var values = PossibleValues.anyOf(alternatives)
        for index in values.constants.indices where values.constants[index].helper == nil {
            values.constants[index].helper = name
        }
        return values
    }

    /// What a getter or a function body returns: one expression; an `if` or a `switch` whose arms give it, the arm of
    /// the case `self` is known to be for a `switch self`, every arm otherwise (marked as a mapping when it is on
    /// `self`); or, for a longer body, what each of its `return`s gives.
    private func value(
        of body: Block, _ context: Int?, selfCases: [String]?, _ isLeaf: (String) -> Bool, depth: Int
    ) -> PossibleValues {
        func arms(_ blocks: [Block]) -> PossibleValues {
            .anyOf(blocks.map { value(of: $0, context, selfCases: nil, isLeaf, depth: depth + 1) })
        }
        if body.count == 1 {
            switch body[0].kind {
            case .returnStatement(let returned?), .expression(let returned):
                return resolve(returned, context, at: returned.position.offset, isLeaf, depth: depth + 1)
            case .ifStatement(let conditions, let then, let otherwise?):
                if let taken = conditions.literalValue { return arms([taken ? then : otherwise]) }
                return arms([then, otherwise])
            case .switchStatement(let subject, let cases):
                guard subject.unwrapped.terminalName == "self" else { return arms(cases.map(\.body)) }
                guard let selfCases else {
                    var values = arms(cases.map(\.body))
                    for index in values.constants.indices { values.constants[index].isCaseMapping = true }
                    return values
                }
                var picked: [Block] = []
                for name in selfCases {
                    // Only an arm that names the case: a `default` may stand for cases of another type.
                    guard let arm = cases.first(where: { $0.patterns.contains { $0.unwrapped.terminalName == name } })
                    else { return .unknown }
                    picked.append(arm.body)
                }
                return arms(picked)
            default:
                break
            }
        }
        let returned = Self.returnedValues(in: body)
        let values = PossibleValues.anyOf(
            returned.map { resolve($0, context, at: $0.position.offset, isLeaf, depth: depth + 1) })
        return Self.pickingSelfCases(values, in: body, selfCases)
    }

    /// A `switch self` that sets what a longer body returns (`let attribute: CFString`, `switch self { case .a:
    /// attribute = kSecAttrAccessibleAfterFirstUnlock ... }`, `return attribute`) is a mapping as much as one whose
    /// arms return: only the arms of the cases `self` is known to be count, and with no known case each constant
    /// set in an arm is marked as a mapping.
    private static func pickingSelfCases(_ values: PossibleValues, in body: Block, _ selfCases: [String]?)
        -> PossibleValues
    {
        let switches = body.compactMap { statement -> [SwitchCase]? in
            guard case .switchStatement(let subject, let cases) = statement.kind,
                subject.unwrapped.terminalName == "self"
            else { return nil }
            return cases
        }
        guard !switches.isEmpty else { return values }
        var values = values
        for cases in switches {
            // Where each arm's expressions are, to tell which arm a constant of this file is written in.
            let arms: [Set<Int>] = cases.map { item in
                var offsets: Set<Int> = []
                item.body.visitExpressions { offsets.insert($0.position.offset) }
                return offsets
            }
            func armsHolding(_ origin: ConstantOrigin) -> [Int] {
                origin.file == nil ? arms.indices.filter { arms[$0].contains(origin.position.offset) } : []
            }
            guard let selfCases else {
                for index in values.constants.indices where !armsHolding(values.constants[index]).isEmpty {
                    values.constants[index].isCaseMapping = true
                }
                continue
            }
            var picked: Set<Int> = []
            for name in selfCases {
                // Only an arm that names the case: a `default` may stand for cases of another type.
                guard let arm = cases.firstIndex(where: { $0.patterns.contains { $0.unwrapped.terminalName == name } })
                else { return .unknown }
                picked.insert(arm)
            }
            values.constants.removeAll { origin in
                let holding = armsHolding(origin)
                return !holding.isEmpty && !holding.contains(where: picked.contains)
            }
        }
        return values
    }

    /// The values of the `return` statements of a body, in its arms too but not in closures or nested functions,
    /// nor in an arm that a literal condition never takes.
    private static func returnedValues(in body: Block) -> [Expr] {
        var values: [Expr] = []
        for statement in body {
            if case .returnStatement(let value?) = statement.kind { values.append(value) }
            for arm in statement.liveArms { values += returnedValues(in: arm) }
        }
        return values
    }

    /// Assignments whose target may be a property, anywhere in a body, closures included, except in an arm that a
    /// literal condition never takes. A bare name that a function declares (or takes as a parameter) is its local;
    /// top-level variables are the file's globals.
    private func collectAssignments(_ block: Block, context: Int) {
        var locals: Set<String> = []
        if let function = contexts[context].function {
            locals = Set(function.parameters)
            block.visitStatements { statement in
                if case .variable(let decl) = statement.kind { locals.insert(decl.name) }
            }
        }
        block.visitLiveStatements { statement in
            guard case .assignment(let written, _, let value) = statement.kind else { return }
            var name: String?
            switch written.unwrapped.kind {
            case .identifier(let identifier) where !locals.contains(identifier): name = identifier
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
