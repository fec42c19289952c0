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

    /// A key the code creates, or looks up: every name it can have.
    private struct KeyNames {
        var tags: Set<String>
        var labels: Set<String>

        /// Whether a lookup with `lookup`'s names can be meant to find a key with these.
        func areFound(by lookup: KeyNames) -> Bool {
            if tags.isEmpty && labels.isEmpty && lookup.tags.isEmpty && lookup.labels.isEmpty { return true }
            return !tags.isDisjoint(with: lookup.tags) || !labels.isDisjoint(with: lookup.labels)
        }
    }

    /// A dictionary of key parameters or of a lookup, with the body its values are written in (nil for a property).
    private struct Written {
        var snapshot: DictionarySnapshot
        var function: Int?
    }

    func check(into collector: inout FindingCollector) {
        let lookups = keyLookups()
        guard !lookups.isEmpty else { return }
        for (index, function) in analysis.functions.enumerated() {
            function.decl.body.visitLiveExpressions { expr in
                guard let creator = expr.calleeName, Self.creators.contains(creator),
                    let parameters = expr.callArguments.first?.value,
                    let created = ephemeralKey(parameters, in: function, index),
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

    /// The names of a key `parameters` create only in memory: every value of kSecAttrIsPermanent that reaches the
    /// creation is false, or there is none. Nil when it can be true on some path or be something the analyzer cannot
    /// read (a wrapper creates stored and ephemeral keys by one parameter), or when the parameters cannot be followed.
    private func ephemeralKey(_ parameters: Expr, in function: AnalyzedFunction, _ index: Int)
        -> (names: KeyNames, explicitlyFalse: Bool)?
    {
        guard let top = written(parameters, in: function, index) else { return nil }
        var parts = [top]
        for nested in top.snapshot.reachingFacts(for: Self.privateKeyAttributes) {
            guard let inner = written(nested.value, in: function, index) else { return nil }
            parts.append(inner)
        }
        var explicitlyFalse = false
        for part in parts {
            for setting in part.snapshot.reachingFacts(for: Self.permanent) {
                let values = analysis.possibleValues(
                    of: setting.value, inFunction: part.function, where: KeychainSymbols.isBoolean)
                guard values.isAlways({ !KeychainSymbols.isTrue($0) }) else { return nil }
                explicitlyFalse = true
            }
        }
        return (names(in: parts, function), explicitlyFalse)
    }

    /// A dictionary literal, a dictionary the flow analysis followed completely, or a property's dictionary literal.
    private func written(_ expr: Expr, in function: AnalyzedFunction, _ index: Int) -> Written? {
        let value = expr.unwrapped
        if case .dictionary(let entries) = value.kind {
            let resolve = { analysis.resolver.symbol(of: $0, locals: function.flow.locals) }
            return Written(snapshot: Self.snapshot(entries, resolve), function: index)
        }
        guard case .identifier(let name) = value.kind else { return nil }
        if let tracked = function.flow.dictionaries.last(where: { $0.variable == name }) {
            return tracked.isComplete ? Written(snapshot: tracked.finalSnapshot, function: index) : nil
        }
        if let property = analysis.unit.properties.first(where: { $0.name == name }),
            case .dictionary(let entries)? = property.initializer?.unwrapped.kind
        {
            return Written(snapshot: Self.snapshot(entries, { analysis.resolver.symbol(of: $0) }), function: nil)
        }
        return nil
    }

    private static func snapshot(_ entries: [DictionaryEntry], _ resolve: (Expr) -> String?) -> DictionarySnapshot {
        let facts = entries.map {
            DictionaryFact(key: resolve($0.key), keyExpr: $0.key, value: $0.value, path: BranchPath())
        }
        return DictionarySnapshot(facts: facts, isComplete: true, variable: nil, ancestors: [])
    }

    // MARK: - Lookups

    /// `SecItemCopyMatching` queries that can be of class kSecClassKey in this file, with the names they look for.
    private func keyLookups() -> [(names: KeyNames, position: SourcePosition)] {
        var found: [(names: KeyNames, position: SourcePosition)] = []
        for (index, function) in analysis.functions.enumerated() {
            for call in function.flow.calls where call.function == .copyMatching {
                guard let query = call.query else { continue }
                let classes = analysis.reachingValues(
                    of: KeychainSymbols.itemClass, in: query, inFunction: index
                ) { $0 == "kSecClassKey" }
                guard classes.contains(where: { !$0.values.constants.isEmpty }) else { continue }
                found.append((names(in: [Written(snapshot: query, function: index)], function), call.call.position))
            }
        }
        return found
    }

    /// Every tag and label the dictionaries can give the key.
    private func names(in parts: [Written], _ function: AnalyzedFunction) -> KeyNames {
        var result = KeyNames(tags: [], labels: [])
        for part in parts {
            for fact in part.snapshot.reachingFacts(for: Self.tag) {
                result.tags.formUnion(names(of: fact.value, part.function))
            }
            for fact in part.snapshot.reachingFacts(for: Self.label) {
                result.labels.formUnion(names(of: fact.value, part.function))
            }
        }
        return result
    }

    /// What a tag or label value names: its first string literal (`"com.example.key".data(using: .utf8)!`), each
    /// value bound to a local that reaches it, else the name it ends with (`tag`, `Self.tag`).
    private func names(of expr: Expr, _ function: Int?, depth: Int = 0) -> Set<String> {
        var literal: String?
        expr.visit { part in
            if literal == nil, case .stringLiteral(let text, _) = part.kind { literal = text }
        }
        if let literal { return ["\"" + literal + "\""] }
        let value = expr.unwrapped
        if depth < 4, let function, case .identifier(let variable) = value.kind,
            let bound = analysis.reachingBindings(
                ofLocal: variable, inFunction: function, readAt: value.position.offset)
        {
            return bound.reduce(into: []) { $0.formUnion(names(of: $1, function, depth: depth + 1)) }
        }
        if depth < 4, let property = analysis.unit.properties.first(where: { $0.name == value.terminalName }),
            let initializer = property.initializer
        {
            return names(of: initializer, nil, depth: depth + 1)
        }
        return [value.terminalName ?? value.sketch]
    }
}
