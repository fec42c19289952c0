internal import SwiftSyntax

extension SwiftLowering {
    func lowerExpr(_ syntax: ExprSyntax) -> Expr {
        let at = position(of: syntax)
        let end = endOffset(of: syntax)
        func make(_ kind: ExprKind) -> Expr { Expr(kind, at: at, endOffset: end) }

        // `_ = SecItemAdd(...)`: the discarded result is written to `_`.
        if syntax.is(DiscardAssignmentExprSyntax.self) { return make(.identifier("_")) }
        if let reference = syntax.as(DeclReferenceExprSyntax.self) {
            return make(.identifier(reference.baseName.identifierText))
        }
        if let member = syntax.as(MemberAccessExprSyntax.self) {
            return make(.member(base: member.base.map { lowerExpr($0) }, name: member.declName.baseName.identifierText))
        }
        if let call = syntax.as(FunctionCallExprSyntax.self) {
            var closures: [Block] = []
            if let trailing = call.trailingClosure { closures.append(lowerItems(trailing.statements)) }
            for extra in call.additionalTrailingClosures { closures.append(lowerItems(extra.closure.statements)) }
            return make(
                .call(
                    callee: lowerExpr(call.calledExpression), arguments: lowerArguments(call.arguments),
                    trailingClosures: closures))
        }
        if let sequence = syntax.as(SequenceExprSyntax.self) {
            return SwiftSequenceFolder(lowering: self, elements: Array(sequence.elements)).fold()
        }
        if let literal = syntax.as(StringLiteralExprSyntax.self) {
            var text = ""
            var interpolations: [Interpolation] = []
            for segment in literal.segments {
                switch segment {
                case .stringSegment(let piece):
                    text += piece.content.text
                case .expressionSegment(let piece):
                    let arguments = lowerArguments(piece.expressions)
                    guard let first = arguments.first else { continue }
                    interpolations.append(Interpolation(value: first.value, arguments: Array(arguments.dropFirst())))
                    text += "\\(…)"
                @unknown default:
                    continue
                }
            }
            return make(.stringLiteral(text, interpolations: interpolations))
        }
        if let integer = syntax.as(IntegerLiteralExprSyntax.self) {
            return make(.integerLiteral(Self.integerValue(integer.literal.text)))
        }
        if syntax.is(FloatLiteralExprSyntax.self) { return make(.floatLiteral) }
        if let boolean = syntax.as(BooleanLiteralExprSyntax.self) {
            return make(.booleanLiteral(boolean.literal.text == "true"))
        }
        if syntax.is(NilLiteralExprSyntax.self) { return make(.nilLiteral) }
        if let dictionary = syntax.as(DictionaryExprSyntax.self) {
            guard case .elements(let elements) = dictionary.content else { return make(.dictionary([])) }
            return make(
                .dictionary(elements.map { DictionaryEntry(key: lowerExpr($0.key), value: lowerExpr($0.value)) }))
        }
        if let array = syntax.as(ArrayExprSyntax.self) {
            return make(.array(array.elements.map { lowerExpr($0.expression) }))
        }
        if let cast = syntax.as(AsExprSyntax.self) {
            let kind = Self.castKind(cast.questionOrExclamationMark?.text)
            return make(.cast(lowerExpr(cast.expression), type: cast.type.trimmedDescription, kind: kind))
        }
        if let unwrap = syntax.as(ForceUnwrapExprSyntax.self) {
            return make(.forceUnwrap(lowerExpr(unwrap.expression)))
        }
        if let chain = syntax.as(OptionalChainingExprSyntax.self) {
            return make(.transparent(lowerExpr(chain.expression)))
        }
        if let subscriptCall = syntax.as(SubscriptCallExprSyntax.self) {
            return make(
                .subscriptAccess(
                    base: lowerExpr(subscriptCall.calledExpression), arguments: lowerArguments(subscriptCall.arguments))
            )
        }
        if let closure = syntax.as(ClosureExprSyntax.self) { return make(.closure(lowerItems(closure.statements))) }
        if let tuple = syntax.as(TupleExprSyntax.self) {
            if tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
                return make(.transparent(lowerExpr(only.expression)))
            }
            return make(.other(tuple.elements.map { lowerExpr($0.expression) }))
        }
        if let tryExpr = syntax.as(TryExprSyntax.self) { return make(.transparent(lowerExpr(tryExpr.expression))) }
        if let awaitExpr = syntax.as(AwaitExprSyntax.self) {
            return make(.transparent(lowerExpr(awaitExpr.expression)))
        }
        if let inOut = syntax.as(InOutExprSyntax.self) {
            return make(.prefix(op: "&", operand: lowerExpr(inOut.expression)))
        }
        if let prefix = syntax.as(PrefixOperatorExprSyntax.self) {
            return make(.prefix(op: prefix.operator.text, operand: lowerExpr(prefix.expression)))
        }
        if let generic = syntax.as(GenericSpecializationExprSyntax.self) { return lowerExpr(generic.expression) }
        if let type = syntax.as(TypeExprSyntax.self) { return make(.identifier(type.type.trimmedDescription)) }
        if let ternary = syntax.as(TernaryExprSyntax.self) {
            return make(
                .ternary(
                    condition: lowerExpr(ternary.condition), then: lowerExpr(ternary.thenExpression),
                    otherwise: lowerExpr(ternary.elseExpression)))
        }
        if let macro = syntax.as(MacroExpansionExprSyntax.self) {
            let callee = Expr(.identifier("#" + macro.macroName.text), at: at, endOffset: end)
            return make(.call(callee: callee, arguments: lowerArguments(macro.arguments), trailingClosures: []))
        }
        if let ifExpr = syntax.as(IfExprSyntax.self) { return make(.closure([lowerIf(ifExpr)])) }
        if let switchExpr = syntax.as(SwitchExprSyntax.self) { return make(.closure([lowerSwitch(switchExpr)])) }
        return make(.other(lowerChildExpressions(of: syntax)))
    }

    func lowerArguments(_ list: LabeledExprListSyntax) -> [Argument] {
        list.map { Argument(label: $0.label?.text, value: lowerExpr($0.expression)) }
    }

    /// Lowers the expressions found anywhere under a node the model has no shape for.
    func lowerChildExpressions(of node: some SyntaxProtocol) -> [Expr] {
        var result: [Expr] = []
        for child in node.children(viewMode: .sourceAccurate) {
            if let expr = child.as(ExprSyntax.self) {
                result.append(lowerExpr(expr))
            } else if let block = child.as(CodeBlockSyntax.self) {
                let at = position(of: block)
                result.append(Expr(.closure(lowerItems(block.statements)), at: at, endOffset: endOffset(of: block)))
            } else {
                result += lowerChildExpressions(of: child)
            }
        }
        return result
    }

    static func castKind(_ mark: String?) -> CastKind {
        switch mark {
        case "?": .conditional
        case "!": .forced
        default: .coerce
        }
    }

    static func integerValue(_ text: String) -> Int? {
        let digits = text.filter { $0 != "_" }
        if digits.hasPrefix("0x") { return Int(digits.dropFirst(2), radix: 16) }
        return Int(digits)
    }
}

extension TokenSyntax {
    /// The identifier without the backticks of an escaped keyword.
    var identifierText: String {
        let raw = text
        if raw.hasPrefix("`"), raw.hasSuffix("`"), raw.count >= 2 { return String(raw.dropFirst().dropLast()) }
        return raw
    }
}
