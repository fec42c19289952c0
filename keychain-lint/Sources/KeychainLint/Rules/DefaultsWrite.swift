/// What KL401 needs to know about a `set(_:forKey:)` call: whether its receiver is UserDefaults (or iCloud's
/// key-value store), and the names its key and value stand for.
struct DefaultsWrite {
    /// The function the call is in: its locals, its type, and its name (a setter's property).
    var function: FunctionDecl
    var locals: [String: Expr]
    /// The file's properties by name, to follow `prefs` and `key` to what they were initialised with.
    var properties: [String: VariableDecl]

    private static let storeTypes: Set<String> = ["UserDefaults", "NSUserDefaults", "NSUbiquitousKeyValueStore"]

    /// Decided by what the receiver was initialised from; by its name only when that cannot be found.
    func isDefaultsStore(_ receiver: Expr?) -> Bool {
        guard let receiver = receiver?.unwrapped else { return isInsideDefaultsType }
        if case .identifier("self") = receiver.kind { return isInsideDefaultsType }
        if Self.mentionsStoreType(receiver) { return true }
        guard let name = receiver.terminalName else { return false }
        if let initializer = initializer(of: name) { return Self.mentionsStoreType(initializer) }
        if let type = properties[name]?.typeName { return Self.storeTypes.contains { type.contains($0) } }
        let text = (receiver.dottedName ?? name).lowercased()
        return text.contains("userdefault") || text.contains("defaults") || text.contains("keyvaluestore")
            || text.contains("kvstore")
    }

    /// The name the stored value goes by: a setter's `newValue` is the property being set.
    func valueName(_ value: Expr) -> String? {
        guard let name = value.terminalName else { return nil }
        return name == "newValue" ? function.name : name
    }

    /// The key's literal when it is one or a constant initialised with one, else its name.
    func keyName(_ key: Expr) -> (name: String, isLiteral: Bool)? {
        if let literal = key.stringValue { return (literal, true) }
        guard let name = key.unwrapped.terminalName else { return nil }
        if let literal = initializer(of: name)?.stringValue { return (literal, true) }
        return (name, false)
    }

    private var isInsideDefaultsType: Bool {
        function.enclosingType.map { Self.storeTypes.contains($0) } == true
    }

    func initializer(of name: String) -> Expr? {
        locals[name] ?? properties[name]?.initializer
    }

    private static func mentionsStoreType(_ expr: Expr) -> Bool {
        var found = false
        expr.visit { part in
            if case .identifier(let name) = part.kind, storeTypes.contains(name) { found = true }
        }
        return found
    }
}
