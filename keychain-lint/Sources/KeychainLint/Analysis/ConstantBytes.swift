/// Decides whether an expression always yields the same bytes: literals, arrays of them, `Data(repeating:count:)`,
/// `hexBytes("...")`, string bytes, and names bound to such values in the function or declared in the file.
package struct ConstantBytes {
    var scan: CryptoScan
    /// `let` properties of the file, by name.
    var properties: [String: VariableDecl]
    /// The function's parameters: they shadow the file's constants and are never constant themselves.
    var parameters: Set<String>

    private static let randomNames = ["random", "Random", "SecRandomCopyBytes", "generate", "UUID", "Date", "now"]
    /// Calls without arguments that still give fixed bytes.
    private static let emptyValues: Set<String> = ["Data", "Array", "[UInt8]", "UInt8", "NSData", "NSMutableData"]

    package init(scan: CryptoScan, unit: SourceUnit, parameters: [String]) {
        self.scan = scan
        self.parameters = Set(parameters)
        var properties: [String: VariableDecl] = [:]
        for property in unit.properties where property.isConstant && property.initializer != nil {
            properties[property.name] = property
        }
        self.properties = properties
    }

    /// The value a local name or a file constant stands for at `offset`.
    package func resolve(_ expr: Expr, at offset: Int) -> Expr {
        var current = expr.unwrapped
        for _ in 0..<6 {
            switch current.kind {
            case .identifier(let name):
                if let bound = scan.binding(of: name, before: offset) {
                    current = bound.value.unwrapped
                } else if parameters.contains(name) {
                    return current
                } else if let property = properties[name]?.initializer {
                    current = property.unwrapped
                } else {
                    return current
                }
            case .member(let base?, let name)
            where ["self", "Self"].contains(base.terminalName ?? "") || base.terminalName?.first?.isUppercase == true:
                guard let property = properties[name]?.initializer else { return current }
                current = property.unwrapped
            default:
                return current
            }
        }
        return current
    }

    package func isConstant(_ expr: Expr, at offset: Int, depth: Int = 0) -> Bool {
        guard depth < 8 else { return false }
        let expr = expr.unwrapped
        switch expr.kind {
        case .integerLiteral, .floatLiteral, .booleanLiteral: return true
        case .stringLiteral(_, let interpolations): return interpolations.isEmpty
        case .array(let elements): return elements.allSatisfy { isConstant($0, at: offset, depth: depth + 1) }
        case .identifier:
            let resolved = resolve(expr, at: offset)
            if case .identifier = resolved.kind { return false }
            return isConstant(resolved, at: offset, depth: depth + 1)
        case .member(let base, let name):
            guard let base else { return true }  // `.utf8`, `.bits128`
            if ["utf8", "utf16", "bytes", "count"].contains(name) {
                return isConstant(base, at: offset, depth: depth + 1)
            }
            let resolved = resolve(expr, at: offset)
            if case .member = resolved.kind { return false }
            return isConstant(resolved, at: offset, depth: depth + 1)
        case .call(let callee, let arguments, let closures):
            guard closures.isEmpty else { return false }
            let name = callee.unwrapped.terminalName ?? callee.unwrapped.dottedName ?? ""
            if Self.randomNames.contains(where: name.contains) { return false }
            // `SymmetricKey(size:)` draws random bytes.
            if name == "SymmetricKey", arguments.first?.label == "size" { return false }
            if case .array = callee.unwrapped.kind {
                // `[UInt8](repeating: 0, count: 12)`
            } else if arguments.isEmpty {
                return Self.emptyValues.contains(name)
            }
            if case .member(let base?, _) = callee.unwrapped.kind, base.terminalName?.first?.isUppercase != true,
                !isConstant(base, at: offset, depth: depth + 1)
            {
                return false
            }
            return arguments.allSatisfy { isConstant($0.value, at: offset, depth: depth + 1) }
        case .binary(let op, let lhs, let rhs):
            return ["+", "..<", "...", "<<", "|", "^"].contains(op) && isConstant(lhs, at: offset, depth: depth + 1)
                && isConstant(rhs, at: offset, depth: depth + 1)
        case .forceUnwrap(let inner), .transparent(let inner), .cast(let inner, _, _):
            return isConstant(inner, at: offset, depth: depth + 1)
        default:
            return false
        }
    }
}
