internal import SwiftSyntax

/// Folds the flat operand/operator list SwiftParser produces for `a == b && c as String` into a tree.
///
/// SwiftParser leaves operators unfolded because their precedence can be user-defined; the standard library's
/// precedence groups are enough for the shapes the rules look at.
struct SwiftSequenceFolder {
    private enum Operator {
        case binary(String)
        case cast(CastKind)
        case typeCheck
        case ternary(ExprSyntax)
    }

    private let lowering: SwiftLowering
    private var operands: [Expr] = []
    private var operators: [Operator] = []

    init(lowering: SwiftLowering, elements: [ExprSyntax]) {
        self.lowering = lowering
        var expectOperand = true
        for element in elements {
            if expectOperand {
                if let type = element.as(TypeExprSyntax.self) {
                    let at = lowering.position(of: type)
                    let end = lowering.endOffset(of: type)
                    operands.append(Expr(.identifier(type.type.trimmedDescription), at: at, endOffset: end))
                } else {
                    operands.append(lowering.lowerExpr(element))
                }
            } else if let binary = element.as(BinaryOperatorExprSyntax.self) {
                operators.append(.binary(binary.operator.text))
            } else if element.is(AssignmentExprSyntax.self) {
                operators.append(.binary("="))
            } else if let cast = element.as(UnresolvedAsExprSyntax.self) {
                operators.append(.cast(SwiftLowering.castKind(cast.questionOrExclamationMark?.text)))
            } else if element.is(UnresolvedIsExprSyntax.self) {
                operators.append(.typeCheck)
            } else if let ternary = element.as(UnresolvedTernaryExprSyntax.self) {
                operators.append(.ternary(ternary.thenExpression))
            } else {
                operators.append(.binary("?"))
            }
            expectOperand.toggle()
        }
    }

    func fold() -> Expr {
        guard !operands.isEmpty else { return Expr(.other([]), at: .unknown, endOffset: 0) }
        return parse(minimumPrecedence: 0, operandIndex: 0).expr
    }

    /// Precedence climbing over `operands[i] operators[i] operands[i + 1] ...`.
    private func parse(minimumPrecedence: Int, operandIndex: Int) -> (expr: Expr, next: Int) {
        var lhs = operands[operandIndex]
        var next = operandIndex
        while next < operators.count {
            let op = operators[next]
            let (precedence, rightAssociative) = Self.precedence(of: op)
            guard precedence >= minimumPrecedence else { break }
            let (rhs, after) = parse(
                minimumPrecedence: rightAssociative ? precedence : precedence + 1, operandIndex: next + 1)
            lhs = combine(op, lhs, rhs)
            next = after
        }
        return (lhs, next)
    }

    private func combine(_ op: Operator, _ lhs: Expr, _ rhs: Expr) -> Expr {
        let kind: ExprKind
        switch op {
        case .binary(let text): kind = .binary(op: text, lhs: lhs, rhs: rhs)
        case .cast(let castKind): kind = .cast(lhs, type: rhs.terminalName ?? "", kind: castKind)
        case .typeCheck: kind = .cast(lhs, type: rhs.terminalName ?? "", kind: .typeCheck)
        case .ternary(let then): kind = .ternary(condition: lhs, then: lowering.lowerExpr(then), otherwise: rhs)
        }
        return Expr(kind, at: lhs.position, endOffset: max(lhs.endOffset, rhs.endOffset))
    }

    private static func precedence(of op: Operator) -> (Int, Bool) {
        switch op {
        case .cast, .typeCheck: return (7, false)
        case .ternary: return (2, true)
        case .binary(let text):
            switch text {
            case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "??=": return (1, true)
            case "||": return (3, false)
            case "&&": return (4, false)
            case "==", "!=", "<", ">", "<=", ">=", "===", "!==", "~=": return (5, false)
            case "??": return (6, true)
            case "...", "..<": return (8, false)
            case "*", "/", "%", "&", "&*": return (10, false)
            case "<<", ">>": return (11, false)
            default: return (9, false)
            }
        }
    }
}
