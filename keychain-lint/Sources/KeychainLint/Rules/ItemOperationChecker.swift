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
        for (index, function) in analysis.functions.enumerated() {
            checkDeleteThenAdd(function.flow, into: &collector)
            for call in function.flow.calls where !call.isWrapperDelete {
                checkDictionaries(call, in: index, analysis, omittedByAdds, into: &collector)
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
        _ call: KeychainCall, in function: Int, _ analysis: SourceAnalysis, _ omittedByAdds: Set<String>,
        into collector: inout FindingCollector
    ) {
        guard let query = call.query else { return }
        switch call.function {
        case .add:
            for fact in query.facts(where: { $0.hasPrefix("kSecMatch") }) {
                collector.report(
                    RuleCatalog.matchLimitInAdd, at: fact.keyExpr.position,
                    "\(fact.key ?? "kSecMatch") is a search key: SecItemAdd rejects it (errSecParam) or adds "
                        + "nothing; was a read query reused?")
            }
        case .update:
            checkUpdate(call, query, in: function, analysis, into: &collector)
        case .delete:
            let limits = analysis.reachingValues(
                of: KeychainSymbols.matchLimit, in: query, inFunction: function, where: Self.isMatchLimit)
            for (fact, values) in limits {
                // Only a limit of one or a number fails; one the analyzer cannot read may be kSecMatchLimitAll.
                let refused = values.constants { $0 != KeychainSymbols.matchLimitAll }
                guard !refused.isEmpty else { continue }
                let reason =
                    "SecItemDelete takes no limit of one or a number: iOS fails this delete with errSecParam and "
                    + "deletes nothing (without a limit it removes every match)"
                collector.report(
                    RuleCatalog.matchLimitInDelete, at: fact.keyExpr.position,
                    values.message(reason, for: refused, as: "this delete's limit", heldBy: fact.value))
            }
        case .copyMatching:
            checkPrimaryKey(call, query, in: function, analysis, omittedByAdds, into: &collector)
        case .createAccessControl:
            break
        }
    }

    /// `kSecMatchLimit...` constants and numbers, as `ConstantOrigins` names its leaves.
    private static func isMatchLimit(_ name: String) -> Bool {
        name.hasPrefix(KeychainSymbols.matchLimit) || Int(name) != nil
    }

    /// KL204: search keys in SecItemUpdate's query, and keys that are no attributes in its attributes to update.
    private func checkUpdate(
        _ call: KeychainCall, _ query: DictionarySnapshot, in function: Int, _ analysis: SourceAnalysis,
        into collector: inout FindingCollector
    ) {
        for fact in query.facts(where: { $0.hasPrefix("kSecReturn") }) {
            collector.report(
                RuleCatalog.invalidUpdate, at: fact.keyExpr.position,
                "\(fact.key ?? "kSecReturn") in SecItemUpdate's query makes the update fail with errSecParam")
        }
        let limits = analysis.reachingValues(
            of: KeychainSymbols.matchLimit, in: query, inFunction: function, where: Self.isMatchLimit)
        for (fact, values) in limits {
            // Only kSecMatchLimitAll is accepted, so a limit the analyzer cannot read is still one too many.
            let refused = values.constants { $0 != KeychainSymbols.matchLimitAll }
            let isUnknown = values.includesOthers || values.constants.contains(where: \.isCaseMapping)
            guard isUnknown || !refused.isEmpty else { continue }
            let reason = "SecItemUpdate always updates every match; a match limit in its query fails with errSecParam"
            collector.report(
                RuleCatalog.invalidUpdate, at: fact.keyExpr.position,
                values.message(reason, for: refused, as: "this update's match limit", heldBy: fact.value))
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
    }

    /// KL206. The query lists (and is silent) when kSecMatchLimitAll can be its limit on some path; it reads one
    /// password when a password class can be its class on some path and every class it can have is known.
    private func checkPrimaryKey(
        _ call: KeychainCall, _ query: DictionarySnapshot, in function: Int, _ analysis: SourceAnalysis,
        _ omittedByAdds: Set<String>, into collector: inout FindingCollector
    ) {
        guard query.isComplete, query.has("kSecReturnData"), !query.has("kSecValuePersistentRef"),
            !query.has("kSecValueRef")
        else { return }
        let limits = analysis.reachingValues(
            of: KeychainSymbols.matchLimit, in: query, inFunction: function, where: Self.isMatchLimit)
        guard !limits.contains(where: { $0.values.constants.contains { $0.name == KeychainSymbols.matchLimitAll } })
        else { return }
        let classes = analysis.reachingValues(
            of: KeychainSymbols.itemClass, in: query, inFunction: function
        ) { $0.hasPrefix("kSecClass") }
        guard !classes.isEmpty, !classes.contains(where: { $0.values.includesOthers }) else { return }
        var missing: [String] = []
        var lacking: [ConstantOrigin] = []
        for (_, values) in classes {
            for origin in values.constants where !origin.isCaseMapping {
                let required: [String]
                switch origin.name {
                case "kSecClassGenericPassword": required = [KeychainSymbols.service, KeychainSymbols.account]
                case "kSecClassInternetPassword": required = [KeychainSymbols.server, KeychainSymbols.account]
                default: continue
                }
                let absent = required.filter { !query.has($0) && !omittedByAdds.contains($0) }
                guard !absent.isEmpty else { continue }
                lacking.append(origin)
                missing += absent.filter { !missing.contains($0) }
            }
        }
        guard !missing.isEmpty else { return }
        var message =
            "this query lacks \(missing.joined(separator: " and ")), part of the item's primary key: it can match "
            + "another item than the one added or updated"
        if let traced = classes.first(where: { item in
            item.values.constants.contains(where: lacking.contains)
                && !item.values.isOnlyConstantsWritten(in: item.fact.value)
        }) {
            let held = traced.values.constants.filter(lacking.contains)
            var names: [String] = []
            for origin in held where !names.contains(origin.name) { names.append(origin.name) }
            message +=
                " (\(names.joined(separator: " or ")) can be its class here: "
                + "\(traced.values.describe(held, heldBy: traced.fact.value)))"
        }
        collector.report(RuleCatalog.copyWithoutPrimaryKey, at: call.call.position, message)
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
