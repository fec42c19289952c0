/// One call seen by `CryptoScan`, with where it runs.
package struct ScannedCall {
    package var expr: Expr
    /// Loops (and closures given to `map`, `forEach`...) around the call.
    package var loopDepth: Int
    /// True inside `#expect(throws:)`, `#require(throws:)` or `XCTAssertThrowsError`: failure is the point.
    package var expectsFailure: Bool
    /// The `if`/`switch`/`#if` arms around the call.
    package var path: BranchPath
    /// True when the call's value is only inspected (`SymmetricKey(size: .bits128).bitCount`, or anything inside
    /// a test assertion such as `#expect(...)`).
    package var isInspected: Bool
}

/// A local `let`/`var` or an assignment to a local name.
package struct ScannedBinding {
    package var value: Expr
    package var loopDepth: Int
    package var offset: Int
    /// Where the binding is made, as `CryptoScan` follows values: its arms, loops and closures.
    package var flowPath: BranchPath
    /// False in an arm that a literal condition never takes (`if false { ... }`).
    package var isLive: Bool
}

/// What the cryptography rules need from one function body: its calls with their loop and test context, and
/// the values its local names are bound to. An arm that a literal condition never takes (`if false { ... }`, the
/// `else` of `if true`) makes no call and mentions no name; its bindings are kept, marked not live.
package struct CryptoScan {
    package private(set) var calls: [ScannedCall] = []
    package private(set) var bindings: [String: [ScannedBinding]] = [:]
    /// Offsets of every identifier and member name, for "is this name mentioned before that call".
    package private(set) var mentions: [String: [Int]] = [:]
    /// The arms being walked; a branch is numbered by its statement's offset.
    private var path = BranchPath()
    /// `path` as values flow: also a step into each loop body, closure and `guard`'s `else` (which may not run),
    /// and one for the code after an `if` arm or a `guard` that exits (which runs only when that arm did not).
    private var flowPath = BranchPath()
    /// The flow path of every identifier, by offset, to tell which bindings can reach it.
    private var identifierPaths: [Int: BranchPath] = [:]
    /// True while walking an arm that a literal condition never takes: its calls and names are left out, its
    /// bindings are marked not live.
    private var inDeadArm = false
    /// Loop bodies and closures have no arms of their own: each gets a branch number below zero.
    private var nextBodyBranch = -1

    private static let loopingCalls: Set<String> = [
        "map", "forEach", "compactMap", "flatMap", "reduce", "filter", "concurrentPerform", "sorted", "contains",
    ]
    private static let failureExpectations: Set<String> = [
        "#expect", "#require", "XCTAssertThrowsError", "assertThrows", "expectThrows",
    ]

    package init(_ body: Block) {
        walk(body, loop: 0, failing: false)
    }

    /// The last live value bound to `name` before `offset`, if the name is local.
    package func binding(of name: String, before offset: Int) -> ScannedBinding? {
        bindings[name]?.last { $0.isLive && $0.offset < offset }
    }

    package func isMentioned(_ name: String, before offset: Int) -> Bool {
        mentions[name]?.contains { $0 < offset } ?? false
    }

    /// The bindings whose value the local `name` can hold where it is read: made before `offset`, live, in code that
    /// can run together with the read at `use` (the identifier's own offset), and not overwritten since on every path
    /// (a later binding in the same arm, or in an arm around the read, replaces them). Nil when the name is not bound
    /// before `offset` in this body.
    package func reachingBindings(of name: String, before offset: Int, readAt use: Int) -> [ScannedBinding]? {
        guard let earlier = bindings[name]?.filter({ $0.offset < offset }), !earlier.isEmpty else { return nil }
        let readPath = identifierPaths[use] ?? BranchPath()
        let candidates = earlier.filter { $0.isLive && $0.flowPath.canRunTogether(with: readPath) }
        return candidates.filter { binding in
            !candidates.contains { later in
                later.offset > binding.offset
                    && (later.flowPath.isPrefix(of: readPath) || later.flowPath.isPrefix(of: binding.flowPath))
            }
        }
    }

    private mutating func walk(_ block: Block, loop: Int, failing: Bool) {
        let saved = flowPath
        for statement in block {
            walk(statement, loop: loop, failing: failing)
            // After `if x { return }` only the other arm goes on; after a guard, only its passing arm.
            switch statement.kind {
            case .ifStatement(_, let then, let otherwise):
                let thenExits = then.exits
                if thenExits != (otherwise?.exits ?? false) {
                    flowPath = flowPath.appending(branch: statement.position.offset, arm: thenExits ? 1 : 0)
                }
            case .guardStatement:
                flowPath = flowPath.appending(branch: statement.position.offset, arm: 0)
            default:
                break
            }
        }
        flowPath = saved
    }

    private mutating func walk(_ statement: Stmt, loop: Int, failing: Bool) {
        func visit(_ expr: Expr) { self.visit(expr, loop: loop, failing: failing) }
        switch statement.kind {
        case .expression(let expr): visit(expr)
        case .variable(let decl):
            if let value = decl.initializer {
                bind(decl.name, value, loop: loop, offset: decl.position.offset)
                visit(value)
            }
        case .assignment(let target, _, let value):
            visit(target)
            visit(value)
            if case .identifier(let name) = target.unwrapped.kind {
                bind(name, value, loop: loop, offset: statement.position.offset)
            }
        case .ifStatement(let conditions, let then, let otherwise):
            for condition in conditions {
                if case .binding(let name, let value?) = condition {
                    bind(name, value, loop: loop, offset: value.position.offset)
                }
                condition.expression.map(visit)
            }
            let taken = conditions.literalValue
            inArm(statement, 0, dead: taken == false) { $0.walk(then, loop: loop, failing: failing) }
            if let otherwise {
                inArm(statement, 1, dead: taken == true) { $0.walk(otherwise, loop: loop, failing: failing) }
            }
        case .guardStatement(let conditions, let otherwise):
            for condition in conditions {
                if case .binding(let name, let value?) = condition {
                    bind(name, value, loop: loop, offset: value.position.offset)
                }
                condition.expression.map(visit)
            }
            inFlowArm(branch: statement.position.offset, arm: 1) { $0.walk(otherwise, loop: loop, failing: failing) }
        case .switchStatement(let subject, let cases):
            visit(subject)
            for (arm, item) in cases.enumerated() {
                item.patterns.forEach(visit)
                inArm(statement, arm) { $0.walk(item.body, loop: loop, failing: failing) }
            }
        case .compilationConditional(let clauses):
            for (arm, clause) in clauses.enumerated() {
                inArm(statement, arm) { $0.walk(clause.body, loop: loop, failing: failing) }
            }
        case .loop(let conditions, let body):
            conditions.forEach(visit)
            inFlowArm(branch: statement.position.offset, arm: 0) { $0.walk(body, loop: loop + 1, failing: failing) }
        case .returnStatement(let value): value.map(visit)
        case .block(let block): walk(block, loop: loop, failing: failing)
        case .function: break
        case .other(let parts): parts.forEach(visit)
        }
    }

    private mutating func inArm(
        _ statement: Stmt, _ arm: Int, dead: Bool = false, _ body: (inout CryptoScan) -> Void
    ) {
        let saved = path
        path = path.appending(branch: statement.position.offset, arm: arm)
        inFlowArm(branch: statement.position.offset, arm: arm, dead: dead, body)
        path = saved
    }

    /// Walks a body that values flow into only on some paths; `path`, which the rules compare calls by, is kept.
    private mutating func inFlowArm(
        branch: Int, arm: Int, dead: Bool = false, _ body: (inout CryptoScan) -> Void
    ) {
        let saved = (flowPath, inDeadArm)
        flowPath = flowPath.appending(branch: branch, arm: arm)
        inDeadArm = inDeadArm || dead
        body(&self)
        (flowPath, inDeadArm) = saved
    }

    /// A loop body or a closure: code that may run once, many times or never.
    private mutating func inBody(_ body: (inout CryptoScan) -> Void) {
        nextBodyBranch -= 1
        inFlowArm(branch: nextBodyBranch, arm: 0, body)
    }

    private mutating func bind(_ name: String, _ value: Expr, loop: Int, offset: Int) {
        bindings[name, default: []].append(
            ScannedBinding(value: value, loopDepth: loop, offset: offset, flowPath: flowPath, isLive: !inDeadArm))
    }

    /// Code that never runs mentions nothing: a check or a use there is none.
    private mutating func mention(_ name: String, at offset: Int) {
        if !inDeadArm { mentions[name, default: []].append(offset) }
    }

    private mutating func visit(
        _ expr: Expr, loop: Int, failing: Bool, inspected: Bool = false, asserted: Bool = false
    ) {
        func visitChild(_ child: Expr, loop: Int, failing: Bool, inspected: Bool = false) {
            visit(child, loop: loop, failing: failing, inspected: inspected || asserted, asserted: asserted)
        }
        switch expr.kind {
        case .identifier(let name):
            mention(name, at: expr.position.offset)
            identifierPaths[expr.position.offset] = flowPath
        case .member(let base, let name):
            mention(name, at: expr.position.offset)
            if let owner = base?.terminalName { mention(owner + "." + name, at: expr.position.offset) }
            if let base { visitChild(base, loop: loop, failing: failing, inspected: true) }
            return
        case .call(let callee, let arguments, let closures):
            if !inDeadArm {
                calls.append(
                    ScannedCall(
                        expr: expr, loopDepth: loop, expectsFailure: failing, path: path,
                        isInspected: inspected || asserted))
            }
            let name = callee.unwrapped.terminalName ?? ""
            let asserts =
                name.hasPrefix("XCTAssert") || ["#expect", "#require", "assert", "precondition"].contains(name)
            let innerLoop = Self.loopingCalls.contains(name) ? loop + 1 : loop
            let innerFailing =
                failing
                || (Self.failureExpectations.contains(name)
                    && (name.hasPrefix("XCT") || arguments.contains { $0.label == "throws" }))
            if case .member(let base?, let member) = callee.unwrapped.kind {
                mention(member, at: callee.position.offset)
                visitChild(base, loop: loop, failing: failing)
            } else {
                visitChild(callee, loop: loop, failing: failing)
            }
            for argument in arguments {
                visit(
                    argument.value, loop: innerLoop, failing: innerFailing, inspected: asserted || asserts,
                    asserted: asserted || asserts)
            }
            for closure in closures { inBody { $0.walk(closure, loop: innerLoop, failing: innerFailing) } }
            return
        case .closure(let block):
            inBody { $0.walk(block, loop: loop, failing: failing) }
            return
        default:
            break
        }
        for child in expr.children { visitChild(child, loop: loop, failing: failing) }
    }
}
