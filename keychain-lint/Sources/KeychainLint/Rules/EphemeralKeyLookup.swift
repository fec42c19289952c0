/// KL605: `SecKeyCreateRandomKey` (or `SecKeyGeneratePair`) without `kSecAttrIsPermanent: true`, in a file that
/// also looks a key up with `SecItemCopyMatching(kSecClassKey…)` by the same application tag or label (or, when
/// neither names one, any key): the lookup assumes the key was stored, and it never was.
struct EphemeralKeyLookup {
    let analysis: SourceAnalysis

    private static let creators: Set<String> = ["SecKeyCreateRandomKey", "SecKeyGeneratePair"]
    private static let permanent = "kSecAttrIsPermanent"
    private static let privateKeyAttributes = "kSecPrivateKeyAttrs"
    private static let tag = "kSecAttrApplicationTag"
    private static let label = "kSecAttrLabel"

    /// A key the code creates, or looks up: what names it.
    private struct KeyNames {
        var tag: String?
        var label: String?

        /// Whether a lookup with `lookup`'s names can be meant to find a key with these.
        func areFound(by lookup: KeyNames) -> Bool {
            if tag == nil && label == nil && lookup.tag == nil && lookup.label == nil { return true }
            if let tag, tag == lookup.tag { return true }
            if let label, label == lookup.label { return true }
            return false
        }
    }

    func check(into collector: inout FindingCollector) {
        let lookups = keyLookups()
        guard !lookups.isEmpty else { return }
        for function in analysis.functions {
            function.decl.body.visitExpressions { expr in
                guard let creator = expr.calleeName, Self.creators.contains(creator),
                    let parameters = expr.callArguments.first?.value,
                    let created = ephemeralKey(parameters, in: function),
                    let lookup = lookups.first(where: { created.names.areFound(by: $0.names) })
                else { return }
                let setting =
                    created.explicitlyFalse ? "set kSecAttrIsPermanent to false" : "have no kSecAttrIsPermanent"
                collector.report(
                    RuleCatalog.ephemeralKeyQueriedAsStored, at: expr.position,
                    "\(creator)'s parameters \(setting), so the private key lives only in memory, yet line "
                        + "\(lookup.position.line) looks it up with SecItemCopyMatching, which finds nothing: set "
                        + "kSecAttrIsPermanent: true in kSecPrivateKeyAttrs, or keep the SecKey instead of looking it "
                        + "up")
            }
        }
    }

    // MARK: - Creations

    /// The names of a key `parameters` create only in memory; nil when the key is stored, or when the
    /// parameters cannot be followed.
    private func ephemeralKey(_ parameters: Expr, in function: AnalyzedFunction)
        -> (names: KeyNames, explicitlyFalse: Bool)?
    {
        guard let top = facts(of: parameters, in: function) else { return nil }
        var nested: [(key: String?, value: Expr)] = []
        if let privateAttributes = top.last(where: { $0.key == Self.privateKeyAttributes }) {
            guard let inner = facts(of: privateAttributes.value, in: function) else { return nil }
            nested = inner
        }
        let settings = (nested + top).filter { $0.key == Self.permanent }
        if settings.contains(where: { ValueShape.isTrue($0.value, analysis.resolver) }) { return nil }
        // A setting the analyzer cannot read (a variable, a parameter) may be true.
        if settings.contains(where: { !isFalse($0.value) }) { return nil }
        let names = KeyNames(
            tag: (nested + top).last { $0.key == Self.tag }.map { name(of: $0.value, function) },
            label: (nested + top).last { $0.key == Self.label }.map { name(of: $0.value, function) })
        return (names, !settings.isEmpty)
    }

    /// The entries of a dictionary literal or of a dictionary the flow analysis followed completely.
    private func facts(of expr: Expr, in function: AnalyzedFunction) -> [(key: String?, value: Expr)]? {
        let value = expr.unwrapped
        if case .dictionary(let entries) = value.kind {
            return entries.map { (key: analysis.resolver.symbol(of: $0.key, locals: function.flow.locals), $0.value) }
        }
        guard case .identifier(let name) = value.kind else { return nil }
        if let tracked = function.flow.dictionaries.last(where: { $0.variable == name }) {
            return tracked.isComplete ? tracked.facts.map { (key: $0.key, value: $0.value) } : nil
        }
        if let property = analysis.unit.properties.first(where: { $0.name == name }),
            case .dictionary(let entries)? = property.initializer?.unwrapped.kind
        {
            return entries.map { (key: analysis.resolver.symbol(of: $0.key), $0.value) }
        }
        return nil
    }

    private func isFalse(_ expr: Expr) -> Bool {
        let value = expr.unwrapped
        switch value.kind {
        case .booleanLiteral(let flag): return !flag
        case .identifier(let name): return name == "kCFBooleanFalse" || name == "NO"
        default: return false
        }
    }

    // MARK: - Lookups

    /// `SecItemCopyMatching` queries of class kSecClassKey in this file, with the names they look for.
    private func keyLookups() -> [(names: KeyNames, position: SourcePosition)] {
        var found: [(names: KeyNames, position: SourcePosition)] = []
        for function in analysis.functions {
            for call in function.flow.calls where call.function == .copyMatching {
                guard let query = call.query, let itemClass = query.fact(for: KeychainSymbols.itemClass),
                    analysis.resolver.symbol(of: itemClass.value, locals: function.flow.locals) == "kSecClassKey"
                else { continue }
                let names = KeyNames(
                    tag: query.fact(for: Self.tag).map { name(of: $0.value, function) },
                    label: query.fact(for: Self.label).map { name(of: $0.value, function) })
                found.append((names, call.call.position))
            }
        }
        return found
    }

    /// What a tag or label value names: its first string literal (`"com.example.key".data(using: .utf8)!`),
    /// through a local it is bound to, else the name it ends with (`tag`, `Self.tag`).
    private func name(of expr: Expr, _ function: AnalyzedFunction, depth: Int = 0) -> String {
        var literal: String?
        expr.visit { part in
            if literal == nil, case .stringLiteral(let text, _) = part.kind { literal = text }
        }
        if let literal { return "\"" + literal + "\"" }
        let value = expr.unwrapped
        if depth < 4, case .identifier(let variable) = value.kind, let bound = function.flow.locals[variable] {
            return name(of: bound, function, depth: depth + 1)
        }
        if depth < 4, let property = analysis.unit.properties.first(where: { $0.name == value.terminalName }),
            let initializer = property.initializer
        {
            return name(of: initializer, function, depth: depth + 1)
        }
        return value.terminalName ?? value.sketch
    }
}
