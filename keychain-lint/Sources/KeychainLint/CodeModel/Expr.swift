/// An expression in the language-neutral code model that both the Swift and the Objective-C front ends produce.
/// Rules read only this model, so a parser upgrade touches the front ends alone.
package struct Expr: Sendable {
    package var kind: ExprKind
    package var position: SourcePosition
    /// UTF-8 offset just past the expression; fixes replace `position.offset..<endOffset`.
    package var endOffset: Int

    package init(_ kind: ExprKind, at position: SourcePosition, endOffset: Int) {
        self.kind = kind
        self.position = position
        self.endOffset = endOffset
    }
}

package indirect enum ExprKind: Sendable {
    case identifier(String)
    /// `base.name`; a nil base is Swift's implicit member (`.biometryAny`).
    case member(base: Expr?, name: String)
    case stringLiteral(String, interpolations: [Interpolation])
    case integerLiteral(Int?)
    case floatLiteral
    case booleanLiteral(Bool)
    case nilLiteral
    /// A function call or an Objective-C message send. A send `[r a:x b:y]` becomes `r.a(x, b: y)`.
    case call(callee: Expr, arguments: [Argument], trailingClosures: [Block])
    case dictionary([DictionaryEntry])
    case array([Expr])
    /// `as`, `as?`, `as!`, `is`, and C casts such as `(__bridge id)`.
    case cast(Expr, type: String, kind: CastKind)
    case forceUnwrap(Expr)
    case subscriptAccess(base: Expr, arguments: [Argument])
    case closure(Block)
    case binary(op: String, lhs: Expr, rhs: Expr)
    case prefix(op: String, operand: Expr)
    case ternary(condition: Expr, then: Expr, otherwise: Expr)
    /// `try`, `await`, parentheses and other wrappers that do not change the value.
    case transparent(Expr)
    /// Anything else; its children are still visited.
    case other([Expr])
}

package enum CastKind: Sendable {
    case coerce
    case conditional
    case forced
    case typeCheck
    case cStyle
}

package struct Argument: Sendable {
    package var label: String?
    package var value: Expr
}

package struct DictionaryEntry: Sendable {
    package var key: Expr
    package var value: Expr
}

/// One `\(...)` segment of a Swift string, or one argument of a format string.
package struct Interpolation: Sendable {
    package var value: Expr
    /// Labels given inside the segment, such as `privacy` in `\(token, privacy: .private)`.
    package var arguments: [Argument]
}
