extension ObjCParser {
    private static let binaryPrecedence: [String: Int] = [
        "||": 3, "&&": 4, "|": 5, "^": 6, "&": 7, "==": 8, "!=": 8, "<": 9, ">": 9, "<=": 9, ">=": 9, "<<": 10,
        ">>": 10, "+": 11, "-": 11, "*": 12, "/": 12, "%": 12,
    ]
    private static let assignmentOperators: Set<String> = [
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
    ]

    func make(_ kind: ExprKind, from start: SourcePosition) -> Expr {
        let end = index > 0 ? tokens[min(index, tokens.count) - 1].endOffset : start.offset
        return Expr(kind, at: start, endOffset: max(end, start.offset))
    }

    mutating func parseExpression() -> Expr { parseAssignment() }

    mutating func parseAssignment() -> Expr {
        let start = position
        guard descend() else { return make(.other([]), from: start) }
        defer { depth -= 1 }
        let target = parseConditional()
        if let token = current, token.kind == .punctuation, Self.assignmentOperators.contains(token.text) {
            index += 1
            let value = parseAssignment()
            return make(.binary(op: token.text, lhs: target, rhs: value), from: start)
        }
        return target
    }

    mutating func parseConditional() -> Expr {
        let start = position
        guard descend() else { return make(.other([]), from: start) }
        defer { depth -= 1 }
        let condition = parseBinary(minimumPrecedence: 3)
        guard consume("?") else { return condition }
        // `a ?: b` keeps a when it is non-nil.
        let then = at(":") ? condition : parseAssignment()
        _ = consume(":")
        let otherwise = parseConditional()
        return make(.ternary(condition: condition, then: then, otherwise: otherwise), from: start)
    }

    private mutating func parseBinary(minimumPrecedence: Int) -> Expr {
        let start = position
        var lhs = parseUnary()
        while let token = current, token.kind == .punctuation, let precedence = Self.binaryPrecedence[token.text],
            precedence >= minimumPrecedence
        {
            index += 1
            let rhs = parseBinary(minimumPrecedence: precedence + 1)
            lhs = make(.binary(op: token.text, lhs: lhs, rhs: rhs), from: start)
        }
        return lhs
    }

    private mutating func parseUnary() -> Expr {
        let start = position
        guard descend() else { return make(.other([]), from: start) }
        defer { depth -= 1 }
        guard let token = current else { return make(.other([]), from: start) }
        if token.kind == .punctuation, ["!", "-", "+", "~", "*", "&", "++", "--"].contains(token.text) {
            index += 1
            let operand = parseUnary()
            return make(.prefix(op: token.text, operand: operand), from: start)
        }
        if token.isIdentifier("sizeof") {
            index += 1
            if at("(") { skipBalanced() } else { _ = parseUnary() }
            return make(.other([]), from: start)
        }
        if token.isPunctuation("("), let type = castType() {
            let operand = parseUnary()
            return make(.cast(operand, type: type, kind: .cStyle), from: start)
        }
        return parsePostfix(parsePrimary())
    }

    /// The type of a C cast such as `(__bridge id)` or `(NSString *)` at the current `(`, consuming it; nil when
    /// the parentheses hold an expression.
    private mutating func castType() -> String? {
        var scan = index + 1
        var words: [String] = []
        var sawStar = false
        while scan < tokens.count, !tokens[scan].isPunctuation(")") {
            let token = tokens[scan]
            if token.kind == .identifier {
                words.append(token.text)
            } else if token.isPunctuation("*") {
                sawStar = true
            } else if !(token.isPunctuation("<") || token.isPunctuation(">") || token.isPunctuation(",")) {
                return nil
            }
            scan += 1
        }
        guard scan + 1 < tokens.count, let first = words.first else { return nil }
        let next = tokens[scan + 1]
        let startsOperand =
            next.kind != .punctuation
            || ["(", "[", "@{", "@[", "@(", "^", "&", "!", "~"].contains(next.text)
        let looksLikeType =
            sawStar || first.hasPrefix("__bridge") || words.count > 1
            || ["id", "BOOL", "int", "long", "float", "double", "char", "void", "bool", "instancetype"].contains(first)
            || first.hasSuffix("Ref") || first.hasPrefix("NS") || first.hasPrefix("CF") || first.hasPrefix("Sec")
            || first.hasPrefix("UI") || first.hasSuffix("_t")
        guard startsOperand, looksLikeType else { return nil }
        index = scan + 1
        return words.filter { !$0.hasPrefix("__bridge") }.joined(separator: " ") + (sawStar ? " *" : "")
    }

    private mutating func parsePostfix(_ base: Expr) -> Expr {
        var expr = base
        let start = base.position
        while let token = current, token.kind == .punctuation {
            switch token.text {
            case "(":
                index += 1
                let arguments = parseArgumentList(closing: ")")
                expr = make(.call(callee: expr, arguments: arguments, trailingClosures: []), from: start)
            case "[":
                index += 1
                let subscriptValue = parseExpression()
                _ = consume("]")
                expr = make(
                    .subscriptAccess(base: expr, arguments: [Argument(label: nil, value: subscriptValue)]), from: start)
            case ".", "->":
                index += 1
                guard let name = current, name.kind == .identifier else { return expr }
                index += 1
                expr = make(.member(base: expr, name: name.text), from: start)
            case "++", "--":
                index += 1
                expr = make(.other([expr]), from: start)
            default:
                return expr
            }
        }
        return expr
    }

    private mutating func parseArgumentList(closing: String) -> [Argument] {
        var arguments: [Argument] = []
        while let token = current, !token.isPunctuation(closing) {
            let before = index
            arguments.append(Argument(label: nil, value: parseAssignment()))
            _ = consume(",")
            if index == before { index += 1 }
        }
        _ = consume(closing)
        return arguments
    }

    private mutating func parsePrimary() -> Expr {
        let start = position
        guard let token = current else { return make(.other([]), from: start) }
        switch token.kind {
        case .identifier:
            index += 1
            switch token.text {
            case "nil", "NULL", "Nil": return make(.nilLiteral, from: start)
            case "true", "YES": return make(.booleanLiteral(true), from: start)
            case "false", "NO": return make(.booleanLiteral(false), from: start)
            default: return make(.identifier(token.text), from: start)
            }
        case .number:
            index += 1
            return make(.integerLiteral(Int(token.text)), from: start)
        case .string, .objcString:
            var text = ""
            while let piece = current, piece.kind == .string || piece.kind == .objcString {
                text += piece.text
                index += 1
            }
            return make(.stringLiteral(text, interpolations: []), from: start)
        case .character:
            index += 1
            return make(.integerLiteral(nil), from: start)
        case .atKeyword:
            index += 1
            switch token.text {
            case "YES", "true": return make(.booleanLiteral(true), from: start)
            case "NO", "false": return make(.booleanLiteral(false), from: start)
            case "selector", "encode", "protocol", "available":
                if at("(") { skipBalanced() }
                return make(.other([]), from: start)
            default:
                return make(.other([]), from: start)
            }
        case .punctuation:
            return parsePunctuationPrimary(token, start)
        }
    }

    private mutating func parsePunctuationPrimary(_ token: ObjCToken, _ start: SourcePosition) -> Expr {
        switch token.text {
        case "(":
            index += 1
            let inner = parseExpression()
            while let next = current, !next.isPunctuation(")") { index += 1 }
            _ = consume(")")
            return make(.transparent(inner), from: start)
        case "[":
            return parseMessageSend()
        case "@{":
            index += 1
            var entries: [DictionaryEntry] = []
            while let next = current, !next.isPunctuation("}") {
                let before = index
                let key = parseConditional()
                _ = consume(":")
                let value = parseConditional()
                entries.append(DictionaryEntry(key: key, value: value))
                _ = consume(",")
                if index == before { index += 1 }
            }
            _ = consume("}")
            return make(.dictionary(entries), from: start)
        case "@[":
            index += 1
            let elements = parseArgumentList(closing: "]").map(\.value)
            return make(.array(elements), from: start)
        case "@(":
            index += 1
            let inner = parseExpression()
            _ = consume(")")
            return make(.transparent(inner), from: start)
        case "^":
            // A block literal `^ReturnType (params) { ... }`, or the `^name` of a block-pointer declarator such as
            // `void (^handler)(int x);`. Only balanced parentheses are skipped: the `)` closing the declarator (or
            // an enclosing call) ends the scan, so the parser never runs past it into the following code.
            index += 1
            while let next = current, !next.isPunctuation("{"), !next.isPunctuation(";"),
                !next.isPunctuation(")"), !next.isPunctuation("]"), !next.isPunctuation("}"),
                !next.isPunctuation(","), !next.isPunctuation("=")
            {
                if next.isPunctuation("(") { skipBalanced() } else { index += 1 }
            }
            guard at("{") else { return make(.other([]), from: start) }
            return make(.closure(parseBlock()), from: start)
        default:
            index += 1
            return make(.other([]), from: start)
        }
    }

    /// `[receiver selector]` or `[receiver part:argument part:argument, variadic...]`, lowered to the call
    /// `receiver.part(argument, part: argument)` that a Swift caller would write.
    private mutating func parseMessageSend() -> Expr {
        let start = position
        index += 1
        let receiver: Expr
        if let token = current, token.kind == .identifier, let next = peek(1), next.kind == .identifier {
            index += 1
            receiver = make(.identifier(token.text), from: start)
        } else {
            receiver = parseUnary()
        }
        var pieces: [(String, Expr?, SourcePosition)] = []
        var variadic: [Expr] = []
        while let token = current, !token.isPunctuation("]") {
            let before = index
            if token.kind == .identifier || token.isPunctuation(":") {
                let name = token.kind == .identifier ? token.text : ""
                let piecePosition = token.position
                if token.kind == .identifier { index += 1 }
                if consume(":") {
                    pieces.append((name, parseAssignment(), piecePosition))
                } else {
                    pieces.append((name, nil, piecePosition))
                }
            } else if consume(",") {
                variadic.append(parseAssignment())
            } else {
                index += 1
            }
            if index == before { index += 1 }
        }
        _ = consume("]")
        let selector = pieces.first?.0 ?? ""
        let calleePosition = pieces.first?.2 ?? start
        let callee = Expr(.member(base: receiver, name: selector), at: calleePosition, endOffset: calleePosition.offset)
        if selector == "dictionaryWithObjectsAndKeys" || selector == "initWithObjectsAndKeys" {
            let values = pieces.compactMap(\.1) + variadic
            return make(.dictionary(Self.pairs(objectsAndKeys: values)), from: start)
        }
        var arguments: [Argument] = []
        for (offset, piece) in pieces.enumerated() {
            guard let value = piece.1 else { continue }
            arguments.append(Argument(label: offset == 0 ? nil : piece.0, value: value))
        }
        arguments += variadic.map { Argument(label: nil, value: $0) }
        return make(.call(callee: callee, arguments: arguments, trailingClosures: []), from: start)
    }

    /// `value, key, value, key, ..., nil` as dictionary entries.
    private static func pairs(objectsAndKeys values: [Expr]) -> [DictionaryEntry] {
        var entries: [DictionaryEntry] = []
        var index = 0
        while index + 1 < values.count {
            if case .nilLiteral = values[index].kind { break }
            entries.append(DictionaryEntry(key: values[index + 1], value: values[index]))
            index += 2
        }
        return entries
    }
}
