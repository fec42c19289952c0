/// KL201 and KL203–KL207: how the four SecItem functions are combined and what each one is given.
package struct ItemOperationChecker: SourceChecker {
    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        // Attributes that the file's own adds leave out too: the items are keyed consistently without them.
        var omittedByAdds: Set<String> = []
        for function in analysis.functions {
            for call in function.flow.calls where call.function == .add {
                guard let query = call.query, query.isComplete else { continue }
                for key in [KeychainSymbols.account, KeychainSymbols.service, KeychainSymbols.server]
                where !query.has(key) {
                    omittedByAdds.insert(key)
                }
            }
        }
        for function in analysis.functions {
            checkDeleteThenAdd(function.flow, into: &collector)
            for call in function.flow.calls where !call.isWrapperDelete {
                checkDictionaries(call, analysis.resolver, function.flow.locals, omittedByAdds, into: &collector)
            }
            checkForcedResults(function, into: &collector)
        }
    }

    private func checkDeleteThenAdd(_ flow: FunctionFlow, into collector: inout FindingCollector) {
        let adds = flow.calls.filter { $0.function == .add }
        for delete in flow.calls where delete.function == .delete {
            let readdition = adds.first { add in
                guard add.sequence > delete.sequence, add.path.canRunTogether(with: delete.path) else { return false }
                guard let removed = delete.query, let added = add.query else { return true }
                return removed.describesSameItem(as: added)
            }
            guard readdition != nil else { continue }
            collector.report(
                RuleCatalog.deleteThenAdd, at: delete.call.position,
                "the item is deleted and then added again: this drops its creation date, access control and "
                    + "persistent reference and leaves a window with no item; use SecItemUpdate, then SecItemAdd "
                    + "on errSecItemNotFound")
        }
    }

    private func checkDictionaries(
        _ call: KeychainCall, _ resolver: ConstantResolver, _ locals: [String: Expr], _ omittedByAdds: Set<String>,
        into collector: inout FindingCollector
    ) {
        guard let query = call.query else { return }
        func limit(_ fact: DictionaryFact) -> String? { resolver.symbol(of: fact.value, locals: locals) }
        switch call.function {
        case .add:
            for fact in query.facts(where: { $0.hasPrefix("kSecMatch") }) {
                collector.report(
                    RuleCatalog.matchLimitInAdd, at: fact.keyExpr.position,
                    "\(fact.key ?? "kSecMatch") is a search key: SecItemAdd rejects it (errSecParam) or adds "
                        + "nothing; was a read query reused?")
            }
        case .update:
            for fact in query.facts(where: { $0.hasPrefix("kSecReturn") }) {
                collector.report(
                    RuleCatalog.invalidUpdate, at: fact.keyExpr.position,
                    "\(fact.key ?? "kSecReturn") in SecItemUpdate's query makes the update fail with errSecParam")
            }
            for fact in query.facts(where: { $0 == KeychainSymbols.matchLimit })
            where limit(fact) != KeychainSymbols.matchLimitAll {
                collector.report(
                    RuleCatalog.invalidUpdate, at: fact.keyExpr.position,
                    "SecItemUpdate always updates every match; a match limit in its query fails with errSecParam")
            }
            let misplaced = call.attributes?.facts(where: {
                $0 == KeychainSymbols.itemClass || $0.hasPrefix("kSecMatch") || $0.hasPrefix("kSecReturn")
            })
            for fact in misplaced ?? [] {
                collector.report(
                    RuleCatalog.invalidUpdate, at: fact.keyExpr.position,
                    "\(fact.key ?? "this key") is not an attribute: SecItemUpdate's attributes to update may hold "
                        + "only attributes and values")
            }
        case .delete:
            for fact in query.facts(where: { $0 == KeychainSymbols.matchLimit }) {
                let value = fact.value.unwrapped
                let isNumber: Bool
                if case .integerLiteral = value.kind { isNumber = true } else { isNumber = false }
                guard limit(fact) == "kSecMatchLimitOne" || isNumber else { continue }
                collector.report(
                    RuleCatalog.matchLimitInDelete, at: fact.keyExpr.position,
                    "SecItemDelete takes no limit of one or a number: iOS fails this delete with errSecParam and "
                        + "deletes nothing (without a limit it removes every match)")
            }
        case .copyMatching:
            checkPrimaryKey(call, query, resolver, locals, omittedByAdds, into: &collector)
        case .createAccessControl:
            break
        }
    }

    private func checkPrimaryKey(
        _ call: KeychainCall, _ query: DictionarySnapshot, _ resolver: ConstantResolver, _ locals: [String: Expr],
        _ omittedByAdds: Set<String>, into collector: inout FindingCollector
    ) {
        guard query.isComplete, query.has("kSecReturnData"), !query.has("kSecValuePersistentRef"),
            !query.has("kSecValueRef"),
            query.fact(for: KeychainSymbols.matchLimit).flatMap({ resolver.symbol(of: $0.value, locals: locals) })
                != KeychainSymbols.matchLimitAll,
            let itemClass = query.fact(for: KeychainSymbols.itemClass).flatMap({
                resolver.symbol(of: $0.value, locals: locals)
            })
        else { return }
        let required: [String]
        switch itemClass {
        case "kSecClassGenericPassword": required = [KeychainSymbols.service, KeychainSymbols.account]
        case "kSecClassInternetPassword": required = [KeychainSymbols.server, KeychainSymbols.account]
        default: return
        }
        let missing = required.filter { !query.has($0) && !omittedByAdds.contains($0) }
        guard !missing.isEmpty else { return }
        collector.report(
            RuleCatalog.copyWithoutPrimaryKey, at: call.call.position,
            "this query lacks \(missing.joined(separator: " and ")), part of the item's primary key: it can match "
                + "another item than the one added or updated")
    }

    /// `result as! Data` or `result!` after `SecItemCopyMatching(query, &result)` (also when the result is
    /// passed through `withUnsafeMutablePointer(to: &result)`), and `attributes[kSecAttrAccount] as! String` on any
    /// dictionary read with a keychain attribute key. Code that never runs (`if false { ... }`) is left out.
    private func checkForcedResults(_ function: AnalyzedFunction, into collector: inout FindingCollector) {
        var results = Set(function.flow.calls.compactMap(\.resultVariable))
        function.decl.body.visitLiveExpressions { expr in
            guard let name = expr.calleeName, name.hasPrefix("withUnsafeMutablePointer") else { return }
            var readsKeychain = false
            expr.visit { if $0.calleeName == KeychainFunction.copyMatching.rawValue { readsKeychain = true } }
            guard readsKeychain else { return }
            for argument in expr.callArguments where argument.label == "to" {
                if case .prefix("&", let inner) = argument.value.kind, let variable = inner.unwrapped.terminalName {
                    results.insert(variable)
                }
            }
        }
        var allowedUnwraps: Set<Int> = []
        var forced: [(SourcePosition, String)] = []
        function.decl.body.visitLiveExpressions { expr in
            switch expr.kind {
            case .cast(let inner, let type, let kind):
                let target = type.trimmingCharacters(in: ["?", "!", " "])
                let isReferenceCast = KeychainSymbols.referenceTypes.contains(target)
                if isReferenceCast, case .forceUnwrap = inner.kind { allowedUnwraps.insert(inner.position.offset) }
                guard kind == .forced, !isReferenceCast else { break }
                if let name = Self.resultName(inner), results.contains(name) {
                    forced.append((expr.position, "`\(name) as! \(type)`"))
                } else if let key = Self.keychainAttributeKey(inner) {
                    forced.append((expr.position, "`[\(key)] as! \(type)`"))
                }
            case .forceUnwrap(let inner):
                if case .identifier(let name) = inner.unwrapped.kind, results.contains(name) {
                    forced.append((expr.position, "`\(name)!`"))
                }
            default:
                break
            }
        }
        for (position, text) in forced where !allowedUnwraps.contains(position.offset) {
            collector.report(
                RuleCatalog.forcedCopyResult, at: position,
                "\(text) assumes the shape of the SecItemCopyMatching result, which depends on kSecReturn* and "
                    + "kSecMatchLimit and on what the item holds; use as? and handle nil")
        }
    }

    /// The keychain attribute a subscript reads, as in `attributes[kSecAttrAccount as String]`.
    private static func keychainAttributeKey(_ expr: Expr) -> String? {
        guard case .subscriptAccess(_, let arguments) = expr.unwrapped.kind, arguments.count == 1,
            let key = arguments[0].value.unwrapped.terminalName,
            key.hasPrefix("kSecAttr") || key.hasPrefix("kSecValue")
        else { return nil }
        return key
    }

    private static func resultName(_ expr: Expr) -> String? {
        switch expr.kind {
        case .identifier(let name): name
        case .forceUnwrap(let inner), .transparent(let inner): resultName(inner)
        default: nil
        }
    }
}

extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
