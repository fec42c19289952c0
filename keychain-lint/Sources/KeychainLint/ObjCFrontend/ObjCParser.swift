/// Recursive-descent parser over Objective-C tokens; declarations and statements here, expressions in
/// `ObjCParser+Expressions.swift`.
struct ObjCParser {
    let tokens: [ObjCToken]
    var index = 0
    var functions: [FunctionDecl] = []
    var globals: [VariableDecl] = []
    /// Expressions and statements being parsed, one inside another: the parser recurses once per level, so a
    /// generated file with thousands of `(` or `{` would overflow the stack (SIGSEGV) without a bound.
    var depth = 0
    /// Set when `depth` passed `maximumDepth`: the rest of the file was abandoned.
    private(set) var tooDeep = false
    /// About 170 nested parentheses (each costs an assignment, a conditional and a unary level) or 500 nested
    /// blocks; hand-written code stays far below, and the debug build still has stack to spare at this depth.
    static let maximumDepth = 500

    init(tokens: [ObjCToken]) {
        self.tokens = tokens
    }

    var current: ObjCToken? { index < tokens.count ? tokens[index] : nil }

    func peek(_ distance: Int) -> ObjCToken? {
        index + distance < tokens.count ? tokens[index + distance] : nil
    }

    func at(_ punctuation: String) -> Bool { current?.isPunctuation(punctuation) == true }

    mutating func consume(_ punctuation: String) -> Bool {
        guard at(punctuation) else { return false }
        index += 1
        return true
    }

    var position: SourcePosition { current?.position ?? tokens.last?.position ?? .unknown }

    /// Skips a balanced group that starts at the current opening token.
    mutating func skipBalanced() {
        let pairs = ["(": ")", "[": "]", "{": "}", "@{": "}", "@[": "]", "@(": ")"]
        guard let open = current?.text, let close = pairs[open], current?.kind == .punctuation else {
            index += 1
            return
        }
        var depth = 0
        while let token = current {
            if token.kind == .punctuation {
                if pairs[token.text] != nil { depth += 1 }
                if [")", "]", "}"].contains(token.text) { depth -= 1 }
            }
            index += 1
            if depth == 0 { return }
        }
        _ = close
    }

    /// Enters one more level of nesting; false (and the rest of the tokens dropped) when that is too deep.
    mutating func descend() -> Bool {
        guard depth < Self.maximumDepth, !tooDeep else {
            tooDeep = true
            // Every loop of the parser stops at the end of the tokens, so the recursion unwinds at once.
            index = tokens.count
            return false
        }
        depth += 1
        return true
    }

    // MARK: File level

    mutating func parseFile() {
        var lastCallName: String?
        while let token = current {
            if token.kind == .atKeyword {
                index += 1
                if token.text == "property" { skip(through: ";") }
                continue
            }
            if token.kind == .punctuation, token.text == "-" || token.text == "+", peek(1)?.isPunctuation("(") == true {
                parseMethod()
                continue
            }
            if token.isPunctuation("{") {
                let start = token.position
                let body = parseBlock()
                functions.append(
                    FunctionDecl(
                        name: lastCallName ?? "<block>", labels: [], parameters: [], body: body, position: start,
                        compilationConditions: []))
                lastCallName = nil
                continue
            }
            if token.kind == .identifier, peek(1)?.isPunctuation("(") == true {
                lastCallName = token.text
                index += 1
                skipBalanced()
                continue
            }
            if token.isPunctuation("=") {
                parseGlobal()
                continue
            }
            if token.isPunctuation(";") { lastCallName = nil }
            index += 1
        }
    }

    private mutating func skip(through punctuation: String) {
        while let token = current, !token.isPunctuation(punctuation) { index += 1 }
        index += 1
    }

    /// `static NSString * const kAPIKey = @"...";`: the name is the identifier before `=`.
    private mutating func parseGlobal() {
        guard index > 0, tokens[index - 1].kind == .identifier else {
            index += 1
            return
        }
        let name = tokens[index - 1]
        index += 1
        let value = parseAssignment()
        globals.append(
            VariableDecl(
                name: name.text, isConstant: true, typeName: nil, initializer: value, attributes: [],
                position: name.position, compilationConditions: []))
        _ = consume(";")
    }

    /// `- (void)save:(NSString *)value forKey:(NSString *)key { ... }`
    private mutating func parseMethod() {
        let start = position
        index += 1
        var pieces: [String] = []
        var parameters: [String] = []
        while let token = current, !token.isPunctuation("{"), !token.isPunctuation(";") {
            if token.isPunctuation("(") {
                skipBalanced()
                if let name = current, name.kind == .identifier, pieces.count > parameters.count {
                    parameters.append(name.text)
                    index += 1
                }
                continue
            }
            if token.kind == .identifier, peek(1)?.isPunctuation(":") == true {
                pieces.append(token.text)
                index += 2
                continue
            }
            if token.kind == .identifier, pieces.isEmpty {
                pieces.append(token.text)
            }
            index += 1
        }
        guard at("{") else {
            index += 1
            return
        }
        let body = parseBlock()
        functions.append(
            FunctionDecl(
                name: pieces.first ?? "<method>", labels: ["_"] + pieces.dropFirst(), parameters: parameters,
                body: body, position: start, compilationConditions: []))
    }

    // MARK: Statements

    mutating func parseBlock() -> Block {
        guard consume("{") else { return [] }
        var block: Block = []
        while let token = current, !token.isPunctuation("}") {
            let before = index
            if let statement = parseStatement() { block.append(statement) }
            if index == before { index += 1 }
        }
        _ = consume("}")
        return block
    }

    private mutating func parseBody() -> Block {
        if at("{") { return parseBlock() }
        return parseStatement().map { [$0] } ?? []
    }

    private mutating func parseParenthesizedCondition() -> Expr? {
        guard consume("(") else { return nil }
        let condition = parseExpression()
        while let token = current, !token.isPunctuation(")") { skipBalancedOrOne() }
        _ = consume(")")
        return condition
    }

    private mutating func skipBalancedOrOne() {
        if let token = current, token.kind == .punctuation, ["(", "[", "{", "@{", "@[", "@("].contains(token.text) {
            skipBalanced()
        } else {
            index += 1
        }
    }

    mutating func parseStatement() -> Stmt? {
        guard current != nil, descend() else { return nil }
        defer { depth -= 1 }
        guard let token = current else { return nil }
        let start = token.position
        if token.isPunctuation("{") { return Stmt(.block(parseBlock()), at: start) }
        if token.isPunctuation(";") {
            index += 1
            return nil
        }
        if token.kind == .atKeyword {
            index += 1
            switch token.text {
            case "try", "finally", "autoreleasepool":
                return Stmt(.block(parseBlock()), at: start)
            case "catch":
                if at("(") { skipBalanced() }
                return Stmt(.ifStatement(conditions: [], then: parseBlock(), otherwise: nil), at: start)
            case "synchronized":
                let lock = parseParenthesizedCondition()
                let body = parseBlock()
                return Stmt(.block([Stmt(.other(lock.map { [$0] } ?? []), at: start)] + body), at: start)
            default:
                index -= 1
            }
        }
        if token.kind == .identifier {
            switch token.text {
            case "if":
                index += 1
                let condition = parseParenthesizedCondition()
                let then = parseBody()
                var otherwise: Block?
                if current?.isIdentifier("else") == true {
                    index += 1
                    otherwise = parseBody()
                }
                return Stmt(
                    .ifStatement(
                        conditions: condition.map { [.expression($0)] } ?? [], then: then, otherwise: otherwise),
                    at: start)
            case "while":
                index += 1
                let condition = parseParenthesizedCondition()
                return Stmt(.loop(conditions: condition.map { [$0] } ?? [], body: parseBody()), at: start)
            case "for":
                index += 1
                var header: [Expr] = []
                if consume("(") {
                    while let part = current, !part.isPunctuation(")") {
                        if part.isPunctuation(";") || part.isPunctuation(",") {
                            index += 1
                            continue
                        }
                        let before = index
                        if let declaration = parseDeclaration() {
                            header += declaration.compactMap {
                                if case .variable(let decl) = $0.kind { return decl.initializer }
                                return nil
                            }
                        } else {
                            header.append(parseExpression())
                        }
                        if index == before { index += 1 }
                    }
                    _ = consume(")")
                }
                return Stmt(.loop(conditions: header, body: parseBody()), at: start)
            case "do":
                index += 1
                let body = parseBody()
                if current?.isIdentifier("while") == true {
                    index += 1
                    _ = parseParenthesizedCondition()
                }
                return Stmt(.loop(conditions: [], body: body), at: start)
            case "switch":
                index += 1
                let subject = parseParenthesizedCondition() ?? Expr(.other([]), at: start, endOffset: start.offset)
                return Stmt(.switchStatement(subject: subject, cases: parseSwitchCases()), at: start)
            case "return":
                index += 1
                let value = at(";") ? nil : parseExpression()
                _ = consume(";")
                return Stmt(.returnStatement(value), at: start)
            case "break", "continue", "goto":
                skip(through: ";")
                return Stmt(.other([]), at: start)
            default:
                break
            }
            if let declarations = parseDeclaration() {
                return declarations.count == 1 ? declarations[0] : Stmt(.block(declarations), at: start)
            }
        }
        let expr = parseExpression()
        _ = consume(";")
        if case .binary(let op, let lhs, let rhs) = expr.kind, op.hasSuffix("="),
            !["==", "!=", "<=", ">="].contains(op)
        {
            return Stmt(.assignment(target: lhs, op: op, value: rhs), at: start)
        }
        return Stmt(.expression(expr), at: start)
    }

    private mutating func parseSwitchCases() -> [SwitchCase] {
        guard consume("{") else { return [] }
        var cases: [SwitchCase] = []
        while let token = current, !token.isPunctuation("}") {
            if token.isIdentifier("case") {
                index += 1
                let pattern = parseConditional()
                _ = consume(":")
                cases.append(SwitchCase(patterns: [pattern], body: []))
            } else if token.isIdentifier("default") {
                index += 1
                _ = consume(":")
                cases.append(SwitchCase(patterns: [], body: []))
            } else {
                let before = index
                if let statement = parseStatement() {
                    if cases.isEmpty { cases.append(SwitchCase(patterns: [], body: [])) }
                    cases[cases.count - 1].body.append(statement)
                }
                if index == before { index += 1 }
            }
        }
        _ = consume("}")
        return cases
    }

    private static let typeQualifiers: Set<String> = [
        "const", "static", "extern", "__block", "__weak", "__strong", "__unsafe_unretained", "__autoreleasing",
        "volatile", "unsigned", "signed", "struct", "enum", "_Nullable", "_Nonnull", "nullable", "nonnull",
        "__nullable", "__nonnull", "register", "inline",
    ]
    private static let statementKeywords: Set<String> = ["return", "if", "else", "case", "default", "sizeof"]

    /// `Type *name = value, *other;` when the tokens read as a declaration; nil (and no tokens used) otherwise.
    private mutating func parseDeclaration() -> [Stmt]? {
        var scan = index
        var typeWords = 0
        while scan < tokens.count {
            let token = tokens[scan]
            if token.kind == .identifier, !Self.statementKeywords.contains(token.text) {
                if !Self.typeQualifiers.contains(token.text) { typeWords += 1 }
                scan += 1
            } else if token.isPunctuation("*") {
                scan += 1
            } else if token.isPunctuation("<"), typeWords == 1 {
                // Lightweight generics: NSMutableDictionary<NSString *, id> *query.
                var depth = 0
                while scan < tokens.count {
                    if tokens[scan].isPunctuation("<") { depth += 1 }
                    if tokens[scan].isPunctuation(">") { depth -= 1 }
                    if tokens[scan].isPunctuation(";") { return nil }
                    scan += 1
                    if depth == 0 { break }
                }
            } else {
                break
            }
        }
        guard typeWords >= 2, scan < tokens.count, tokens[scan - 1].kind == .identifier else { return nil }
        let terminator = tokens[scan]
        guard
            terminator.isPunctuation("=") || terminator.isPunctuation(";") || terminator.isPunctuation(",")
                || terminator.isPunctuation("[")
        else { return nil }
        let typeName = tokens[index..<(scan - 1)].map(\.text).joined(separator: " ")
        index = scan - 1
        var declarations: [Stmt] = []
        while let name = current, name.kind == .identifier {
            index += 1
            if at("[") { skipBalanced() }
            var value: Expr?
            if consume("=") { value = parseAssignment() }
            let decl = VariableDecl(
                name: name.text, isConstant: typeName.contains("const"), typeName: typeName, initializer: value,
                attributes: [], position: name.position, compilationConditions: [])
            declarations.append(Stmt(.variable(decl), at: name.position))
            guard consume(",") else { break }
            while consume("*") {}
        }
        _ = consume(";")
        return declarations
    }
}
