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
}

/// What the cryptography rules need from one function body: its calls with their loop and test context, and
/// the values its local names are bound to.
package struct CryptoScan {
    package private(set) var calls: [ScannedCall] = []
    package private(set) var bindings: [String: [ScannedBinding]] = [:]
    /// Offsets of every identifier and member name, for "is this name mentioned before that call".
    package private(set) var mentions: [String: [Int]] = [:]
    /// The arms being walked; a branch is numbered by its statement's offset.
    private var path = BranchPath()

    private static let loopingCalls: Set<String> = [
        "map", "forEach", "compactMap", "flatMap", "reduce", "filter", "concurrentPerform", "sorted", "contains",
    ]
    private static let failureExpectations: Set<String> = [
        "#expect", "#require", "XCTAssertThrowsError", "assertThrows", "expectThrows",
    ]

    package init(_ body: Block) {
        walk(body, loop: 0, failing: false)
    }

    /// The last value bound to `name` before `offset`, if the name is local.
    package func binding(of name: String, before offset: Int) -> ScannedBinding? {
        bindings[name]?.last { $0.offset < offset }
    }

    package func isMentioned(_ name: String, before offset: Int) -> Bool {
        mentions[name]?.contains { $0 < offset } ?? false
    }

    private mutating func walk(_ block: Block, loop: Int, failing: Bool) {
        for statement in block { walk(statement, loop: loop, failing: failing) }
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
            inArm(statement, 0) { $0.walk(then, loop: loop, failing: failing) }
            if let otherwise { inArm(statement, 1) { $0.walk(otherwise, loop: loop, failing: failing) } }
        case .guardStatement(let conditions, let otherwise):
            for condition in conditions {
                if case .binding(let name, let value?) = condition {
                    bind(name, value, loop: loop, offset: value.position.offset)
                }
                condition.expression.map(visit)
            }
            walk(otherwise, loop: loop, failing: failing)
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
            walk(body, loop: loop + 1, failing: failing)
        case .returnStatement(let value): value.map(visit)
        case .block(let block): walk(block, loop: loop, failing: failing)
        case .function: break
        case .other(let parts): parts.forEach(visit)
        }
    }

    private mutating func inArm(_ statement: Stmt, _ arm: Int, _ body: (inout CryptoScan) -> Void) {
        let saved = path
        path = path.appending(branch: statement.position.offset, arm: arm)
        body(&self)
        path = saved
    }

    private mutating func bind(_ name: String, _ value: Expr, loop: Int, offset: Int) {
        bindings[name, default: []].append(ScannedBinding(value: value, loopDepth: loop, offset: offset))
    }

    private mutating func visit(
        _ expr: Expr, loop: Int, failing: Bool, inspected: Bool = false, asserted: Bool = false
    ) {
        func visitChild(_ child: Expr, loop: Int, failing: Bool, inspected: Bool = false) {
            visit(child, loop: loop, failing: failing, inspected: inspected || asserted, asserted: asserted)
        }
        switch expr.kind {
        case .identifier(let name):
            mentions[name, default: []].append(expr.position.offset)
        case .member(let base, let name):
            mentions[name, default: []].append(expr.position.offset)
            if let owner = base?.terminalName { mentions[owner + "." + name, default: []].append(expr.position.offset) }
            if let base { visitChild(base, loop: loop, failing: failing, inspected: true) }
            return
        case .call(let callee, let arguments, let closures):
            calls.append(
                ScannedCall(
                    expr: expr, loopDepth: loop, expectsFailure: failing, path: path,
                    isInspected: inspected || asserted))
            let name = callee.unwrapped.terminalName ?? ""
            let asserts =
                name.hasPrefix("XCTAssert") || ["#expect", "#require", "assert", "precondition"].contains(name)
            let innerLoop = Self.loopingCalls.contains(name) ? loop + 1 : loop
            let innerFailing =
                failing
                || (Self.failureExpectations.contains(name)
                    && (name.hasPrefix("XCT") || arguments.contains { $0.label == "throws" }))
            if case .member(let base?, let member) = callee.unwrapped.kind {
                mentions[member, default: []].append(callee.position.offset)
                visitChild(base, loop: loop, failing: failing)
            } else {
                visitChild(callee, loop: loop, failing: failing)
            }
            for argument in arguments {
                visit(
                    argument.value, loop: innerLoop, failing: innerFailing, inspected: asserted || asserts,
                    asserted: asserted || asserts)
            }
            for closure in closures { walk(closure, loop: innerLoop, failing: innerFailing) }
            return
        case .closure(let block):
            walk(block, loop: loop, failing: failing)
            return
        default:
            break
        }
        for child in expr.children { visitChild(child, loop: loop, failing: failing) }
    }
}
