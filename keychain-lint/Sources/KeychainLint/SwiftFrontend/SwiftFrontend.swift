internal import SwiftParser
internal import SwiftSyntax

/// Parses Swift source with the toolchain's SwiftParser and lowers it into the code model.
///
/// This folder is the only code that imports SwiftSyntax, so a toolchain upgrade that renames syntax nodes
/// touches these files and nothing else.
package enum SwiftFrontend {
    /// Parses without lowering; the benchmark uses it to tell parser time from analysis time.
    package static func parseSyntaxOnly(_ source: String) -> Int {
        guard SwiftNestingScan.depth(of: source) != nil else { return 0 }
        return Parser.parse(source: source).statements.count
    }

    package static func parse(path: String, source: String) -> SourceUnit {
        guard SwiftNestingScan.depth(of: source) != nil else {
            return SourceUnit(
                path: path, language: .swift, imports: [], functions: [], properties: [], topLevel: [],
                skipReason: "nesting too deep (more than \(SwiftNestingScan.maximumDepth) arrays or closures nested "
                    + "in one expression; SwiftParser's time doubles with each level)")
        }
        let tree = Parser.parse(source: source)
        let lowering = SwiftLowering(converter: SourceLocationConverter(fileName: path, tree: tree))
        let topLevel = lowering.lowerTopLevel(tree.statements)
        return SourceUnit(
            path: path, language: .swift, imports: lowering.imports, functions: lowering.functions,
            properties: lowering.properties, topLevel: topLevel)
    }
}

/// Walks one syntax tree and collects its declarations; statements and expressions are lowered by extensions.
final class SwiftLowering {
    let converter: SourceLocationConverter
    var imports: [ImportDecl] = []
    var functions: [FunctionDecl] = []
    var properties: [VariableDecl] = []
    /// Conditions of the `#if` clauses that enclose the node being lowered.
    var compilationConditions: [String] = []
    /// Names of the types and extensions that enclose the node being lowered, innermost last.
    var enclosingTypes: [String] = []

    init(converter: SourceLocationConverter) {
        self.converter = converter
    }

    func position(of node: some SyntaxProtocol) -> SourcePosition {
        let absolute = node.positionAfterSkippingLeadingTrivia
        let location = converter.location(for: absolute)
        return SourcePosition(line: location.line, column: location.column, offset: absolute.utf8Offset)
    }

    func endOffset(of node: some SyntaxProtocol) -> Int {
        node.endPositionBeforeTrailingTrivia.utf8Offset
    }

    // MARK: Declarations

    func lowerTopLevel(_ items: CodeBlockItemListSyntax) -> Block {
        var block: Block = []
        for item in items {
            switch item.item {
            case .decl(let decl):
                if let variable = decl.as(VariableDeclSyntax.self) {
                    let declarations = lowerVariable(variable)
                    properties += declarations
                    block += declarations.map { Stmt(.variable($0), at: $0.position) }
                } else if let conditional = decl.as(IfConfigDeclSyntax.self) {
                    for clause in liveClauses(conditional) {
                        withCondition(clause) {
                            if case .statements(let nested) = clause.elements { block += lowerTopLevel(nested) }
                            if case .decls(let members) = clause.elements { lowerMembers(members) }
                        }
                    }
                } else {
                    lowerMemberDecl(decl)
                }
            default:
                block += lowerItem(item)
            }
        }
        return block
    }

    /// The clauses that can be compiled: `#if false` is dead code (often an old implementation kept for
    /// reference), and after `#if true` the other clauses are.
    func liveClauses(_ conditional: IfConfigDeclSyntax) -> [IfConfigClauseSyntax] {
        var live: [IfConfigClauseSyntax] = []
        for clause in conditional.clauses {
            let condition = clause.condition?.trimmedDescription
            if condition == "false" { continue }
            live.append(clause)
            if condition == "true" || condition == nil { break }
        }
        return live
    }

    func withCondition(_ clause: IfConfigClauseSyntax, _ body: () -> Void) {
        compilationConditions.append(clause.condition?.trimmedDescription ?? "#else")
        body()
        compilationConditions.removeLast()
    }

    func lowerMembers(_ members: MemberBlockItemListSyntax) {
        for member in members { lowerMemberDecl(member.decl) }
    }

    /// Records a declaration found at file or type level, or nested inside a body.
    func lowerMemberDecl(_ decl: DeclSyntax) {
        if let importDecl = decl.as(ImportDeclSyntax.self) {
            imports.append(ImportDecl(name: importDecl.path.trimmedDescription, position: position(of: importDecl)))
        } else if let variable = decl.as(VariableDeclSyntax.self) {
            properties += lowerVariable(variable)
        } else if let function = decl.as(FunctionDeclSyntax.self) {
            registerFunction(
                name: function.name.text, parameters: function.signature.parameterClause.parameters,
                body: function.body, returnsValue: Self.isValue(function.signature.returnClause?.type), at: function)
        } else if let initializer = decl.as(InitializerDeclSyntax.self) {
            registerFunction(
                name: "init", parameters: initializer.signature.parameterClause.parameters,
                body: initializer.body, returnsValue: false, at: initializer)
        } else if let deinitializer = decl.as(DeinitializerDeclSyntax.self), let body = deinitializer.body {
            registerBody(name: "deinit", labels: [], parameters: [], items: body.statements, at: deinitializer)
        } else if let subscriptDecl = decl.as(SubscriptDeclSyntax.self), let accessors = subscriptDecl.accessorBlock {
            registerAccessors(
                accessors, name: "subscript", returnsValue: Self.isValue(subscriptDecl.returnClause.type),
                at: subscriptDecl)
        } else if let conditional = decl.as(IfConfigDeclSyntax.self) {
            for clause in liveClauses(conditional) {
                withCondition(clause) {
                    if case .decls(let members) = clause.elements { lowerMembers(members) }
                    if case .statements(let items) = clause.elements { _ = lowerTopLevel(items) }
                }
            }
        } else if let enumCase = decl.as(EnumCaseDeclSyntax.self) {
            properties += lowerEnumCase(enumCase)
        } else if let group = decl.asProtocol(DeclGroupSyntax.self) {
            enclosingTypes.append(Self.typeName(of: decl) ?? "")
            lowerMembers(group.memberBlock.members)
            enclosingTypes.removeLast()
        }
    }

    static func typeName(of decl: DeclSyntax) -> String? {
        if let type = decl.as(ExtensionDeclSyntax.self) { return type.extendedType.trimmedDescription }
        if let type = decl.as(ClassDeclSyntax.self) { return type.name.text }
        if let type = decl.as(StructDeclSyntax.self) { return type.name.text }
        if let type = decl.as(EnumDeclSyntax.self) { return type.name.text }
        if let type = decl.as(ActorDeclSyntax.self) { return type.name.text }
        return nil
    }

    /// `case clientSecret = "..."`: a raw value is a constant named by its case.
    func lowerEnumCase(_ decl: EnumCaseDeclSyntax) -> [VariableDecl] {
        decl.elements.compactMap { element in
            guard let rawValue = element.rawValue else { return nil }
            return VariableDecl(
                name: element.name.text, isConstant: true, typeName: nil, initializer: lowerExpr(rawValue.value),
                attributes: [], position: position(of: element), compilationConditions: compilationConditions)
        }
    }

    /// False for no result type and for `Void` or `()`, whose one-expression body returns nothing.
    static func isValue(_ type: TypeSyntax?) -> Bool {
        guard let type else { return false }
        return !["Void", "()", "Swift.Void"].contains(type.trimmedDescription)
    }

    func registerFunction(
        name: String, parameters: FunctionParameterListSyntax, body: CodeBlockSyntax?, returnsValue: Bool,
        at node: some SyntaxProtocol
    ) {
        guard let body else { return }
        let labels = parameters.map { $0.firstName.text }
        let names = parameters.map { ($0.secondName ?? $0.firstName).text }
        registerBody(
            name: name, labels: labels, parameters: names, items: body.statements, returnsValue: returnsValue, at: node)
    }

    func registerBody(
        name: String, labels: [String], parameters: [String], items: CodeBlockItemListSyntax,
        returnsValue: Bool = false, at node: some SyntaxProtocol
    ) {
        let position = position(of: node)
        let conditions = compilationConditions
        let enclosingType = enclosingTypes.last
        let body = lowerItems(items)
        functions.append(
            FunctionDecl(
                name: name, labels: labels, parameters: parameters, body: body, position: position,
                compilationConditions: conditions, enclosingType: enclosingType, returnsValue: returnsValue))
    }

    /// `returnsValue` is for the getter; setters, observers and `_modify` give nothing back.
    func registerAccessors(
        _ block: AccessorBlockSyntax, name: String, returnsValue: Bool, at node: some SyntaxProtocol
    ) {
        switch block.accessors {
        case .getter(let items):
            registerBody(name: name, labels: [], parameters: [], items: items, returnsValue: returnsValue, at: node)
        case .accessors(let accessors):
            for accessor in accessors {
                guard let body = accessor.body else { continue }
                let getter = accessor.accessorSpecifier.tokenKind == .keyword(.get)
                registerBody(
                    name: name, labels: [], parameters: [], items: body.statements,
                    returnsValue: getter && returnsValue, at: accessor)
            }
        @unknown default:
            break
        }
    }

    func lowerVariable(_ decl: VariableDeclSyntax) -> [VariableDecl] {
        let isConstant = decl.bindingSpecifier.text == "let"
        let attributes: [AttributeUse] = decl.attributes.compactMap { element in
            guard case .attribute(let attribute) = element else { return nil }
            var arguments: [Argument] = []
            if case .argumentList(let list) = attribute.arguments { arguments = lowerArguments(list) }
            return AttributeUse(name: attribute.attributeName.trimmedDescription, arguments: arguments)
        }
        var result: [VariableDecl] = []
        for binding in decl.bindings {
            let name = binding.pattern.trimmedDescription
            if let accessors = binding.accessorBlock {
                // A computed property has a type annotation; without one there are only observers.
                let returnsValue = binding.typeAnnotation.map { Self.isValue($0.type) } ?? false
                registerAccessors(accessors, name: name, returnsValue: returnsValue, at: binding)
            }
            result.append(
                VariableDecl(
                    name: name, isConstant: isConstant, typeName: binding.typeAnnotation?.type.trimmedDescription,
                    initializer: binding.initializer.map { lowerExpr($0.value) }, attributes: attributes,
                    position: position(of: binding.pattern), compilationConditions: compilationConditions))
        }
        return result
    }
}
