/// Follows an expression to the Keychain Services constant it stands for, through the aliases code uses:
/// `kSecAttrAccessible as String`, `String(kSecAttrAccessible)`, `(__bridge id)kSecAttrAccessible`, local
/// constants, and constants declared anywhere in the module.
package struct ConstantResolver: Sendable {
    /// Module-level names (`static let accessible = kSecAttrAccessible as String`) and what they stand for.
    package var moduleAliases: [String: String]

    package init(moduleAliases: [String: String] = [:]) {
        self.moduleAliases = moduleAliases
    }

    /// The `kSec...`/`errSec...` constant `expr` evaluates to, or nil when it is not one.
    package func symbol(of expr: Expr, locals: [String: Expr] = [:], depth: Int = 0) -> String? {
        guard depth < 8 else { return nil }
        let expr = expr.unwrapped
        switch expr.kind {
        case .identifier(let name):
            if Self.isSymbolName(name) { return name }
            if let bound = locals[name] { return symbol(of: bound, locals: locals, depth: depth + 1) }
            return moduleAliases[name]
        case .member(let base, let name):
            if Self.isSymbolName(name) { return name }
            guard base != nil else { return nil }
            return moduleAliases[name]
        case .call(let callee, let arguments, _):
            guard arguments.count == 1, let only = arguments.first,
                only.label == nil || only.label == "describing",
                let name = callee.unwrapped.terminalName, Self.conversionFunctions.contains(name)
            else { return nil }
            return symbol(of: only.value, locals: locals, depth: depth + 1)
        default:
            return nil
        }
    }

    static func isSymbolName(_ name: String) -> Bool {
        name.hasPrefix("kSec") || name.hasPrefix("errSec") || name == "noErr" || name.hasPrefix("kCFBoolean")
    }

    /// Calls that convert a CFString constant without changing it.
    static let conversionFunctions: Set<String> = [
        "String", "NSString", "toString", "CFString", "string", "stringValue",
    ]
}
