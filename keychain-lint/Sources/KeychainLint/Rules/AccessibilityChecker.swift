/// KL101–KL103 and KL301–KL302: the protection class written into items, and what it is combined with.
package struct AccessibilityChecker: SourceChecker {
    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        // A constant given to a wrapper is reported there, and not again where a parameter takes it into an item.
        checkWrapperArguments(analysis, into: &collector)
        for (index, function) in analysis.functions.enumerated() {
            for dictionary in function.flow.dictionaries where !dictionary.onlyReadOnlyUses {
                checkAlways(dictionary.facts, in: index, analysis, into: &collector)
                // Dictionaries that reach a SecItem call are judged by what they hold at that call.
                if dictionary.uses.isEmpty {
                    checkCombinations(dictionary.finalSnapshot, in: index, analysis, into: &collector)
                }
            }
            for call in function.flow.calls {
                checkCall(call, in: index, analysis: analysis, into: &collector)
                let written = call.function == .add ? call.query : call.function == .update ? call.attributes : nil
                if let written { checkCombinations(written, in: index, analysis, into: &collector) }
            }
        }
        // Dictionaries declared as properties are written wherever they are used.
        let resolver = analysis.resolver
        for property in analysis.unit.properties {
            guard case .dictionary(let entries)? = property.initializer?.unwrapped.kind else { continue }
            let facts = entries.map {
                DictionaryFact(key: resolver.symbol(of: $0.key), keyExpr: $0.key, value: $0.value, path: BranchPath())
            }
            checkAlways(facts, in: nil, analysis, into: &collector)
            let snapshot = DictionarySnapshot(facts: facts, isComplete: true, variable: property.name, ancestors: [])
            checkCombinations(snapshot, in: nil, analysis, into: &collector)
        }
    }

    /// - Parameter function: the index of the body the facts are written in, nil for a property's initializer.
    private func checkAlways(
        _ facts: [DictionaryFact], in function: Int?, _ analysis: SourceAnalysis, into collector: inout FindingCollector
    ) {
        for fact in facts where fact.key == KeychainSymbols.accessible {
            reportAlways(writtenAs: fact.value, in: function, byWrapper: false, analysis, into: &collector)
        }
    }

    /// KL101 where a protection class is written, or given to a wrapper, when any value it can hold is an Always
    /// class (or, for a wrapper, its option for one): the constant itself, or one that reaches it on some path (the
    /// message names where that constant is written).
    private func reportAlways(
        writtenAs value: Expr, in function: Int?, byWrapper: Bool, _ analysis: SourceAnalysis,
        into collector: inout FindingCollector
    ) {
        let isAlways: (String) -> Bool =
            byWrapper
            ? { KeychainSymbols.alwaysClasses.contains($0) || KeychainSymbols.wrapperAlwaysCases.contains($0) }
            : { KeychainSymbols.alwaysClasses.contains($0) }
        let values = analysis.possibleValues(of: value, inFunction: function, where: isAlways)
        let always = values.constants.filter {
            !$0.isCaseMapping && !collector.hasFinding(of: RuleCatalog.accessibleAlways, at: $0)
        }
        guard let first = always.first else { return }
        let written = value.unwrapped
        let isWrapperCase = !KeychainSymbols.alwaysClasses.contains(first.name)
        guard values.isOnlyConstantsWritten(in: written) else {
            let held = values.describe(always, heldBy: written)
            let message: String
            if isWrapperCase {
                message =
                    "the wrapper can store this item with an Always accessibility class (.\(first.name)) here: "
                    + "\(held); it stays decryptable while the device is locked; use "
                    + ".\(Self.wrapperReplacement(first.name))"
            } else {
                var names: [String] = []
                for origin in always where !names.contains(origin.name) { names.append(origin.name) }
                let replacement =
                    KeychainSymbols.alwaysReplacement[first.name] ?? "kSecAttrAccessibleAfterFirstUnlock"
                message =
                    "\(names.joined(separator: " or ")) can be written to a keychain item here: \(held); it stays "
                    + "decryptable while the device is locked; use \(replacement)"
            }
            collector.report(RuleCatalog.accessibleAlways, at: written.position, message)
            return
        }
        if isWrapperCase {
            collector.report(
                RuleCatalog.accessibleAlways, at: written.position,
                "the wrapper stores this item with an Always accessibility class (.\(first.name)): it stays "
                    + "decryptable while the device is locked; use .\(Self.wrapperReplacement(first.name))")
        } else {
            reportAlways(first.name, at: value, into: &collector)
        }
    }

    /// The same wrapper's AfterFirstUnlock option, keeping ThisDeviceOnly when the code asked for it.
    private static func wrapperReplacement(_ option: String) -> String {
        option.replacingOccurrences(of: "Always", with: "AfterFirstUnlock")
            .replacingOccurrences(of: "always", with: "afterFirstUnlock")
    }

    private func reportAlways(_ constant: String, at value: Expr, into collector: inout FindingCollector) {
        let replacement = KeychainSymbols.alwaysReplacement[constant] ?? "kSecAttrAccessibleAfterFirstUnlock"
        var edit: TextEdit?
        let written = value.unwrapped
        if written.terminalName == constant {
            edit = TextEdit(range: written.position.offset..<written.endOffset, replacement: replacement)
        }
        collector.report(
            RuleCatalog.accessibleAlways, at: written.position,
            "\(constant) is written to a keychain item: it stays decryptable while the device is locked; "
                + "use \(replacement)",
            edit: edit)
    }

    /// KL301 and KL302 for what one write (an add, an update's attributes, or a dictionary never passed to a
    /// SecItem call) holds.
    private func checkCombinations(
        _ written: DictionarySnapshot, in function: Int?, _ analysis: SourceAnalysis,
        into collector: inout FindingCollector
    ) {
        let accessible = written.facts.filter { $0.key == KeychainSymbols.accessible }
        let control = written.facts.filter { $0.key == KeychainSymbols.accessControl }
        for fact in accessible where control.contains(where: { $0.path.canRunTogether(with: fact.path) }) {
            collector.report(
                RuleCatalog.accessibleWithAccessControl, at: fact.keyExpr.position,
                "kSecAttrAccessible is set together with kSecAttrAccessControl: SecItemAdd fails with errSecParam; "
                    + "put the class in SecAccessControlCreateWithFlags instead")
        }
        checkSynchronizable(written, in: function, analysis, into: &collector)
    }

    /// KL302: `kSecAttrSynchronizable` true together with an access control or a ThisDeviceOnly class. The flag and
    /// the class are followed to every value that reaches the write. When the flag is true on only some paths, the
    /// other half must hold wherever the flag is written (an access control written with it or before it, a class
    /// that is ThisDeviceOnly on every path): one condition may choose both, `shared ? kCFBooleanTrue :
    /// kCFBooleanFalse` with an access control only when not shared.
    private func checkSynchronizable(
        _ written: DictionarySnapshot, in function: Int?, _ analysis: SourceAnalysis,
        into collector: inout FindingCollector
    ) {
        let syncFacts = written.reachingFacts(for: KeychainSymbols.synchronizable)
        guard !syncFacts.isEmpty else { return }
        let controls = written.reachingFacts(for: KeychainSymbols.accessControl)
        let classes = written.reachingFacts(for: KeychainSymbols.accessible).map { fact in
            let values = analysis.possibleValues(
                of: fact.value, inFunction: function, where: KeychainSymbols.isAccessibilityClass)
            let deviceOnly = values.constants(where: KeychainSymbols.isThisDeviceOnly)
            return (fact: fact, values: values, deviceOnly: deviceOnly)
        }
        for sync in syncFacts {
            let flag = analysis.possibleValues(of: sync.value, inFunction: function, where: KeychainSymbols.isTrue)
            let isTrue = flag.constants.filter { !$0.isCaseMapping }
            guard !isTrue.isEmpty else { continue }
            let alwaysTrue = flag.onlyConstants != nil && isTrue.count == flag.constants.count
            let controlled = controls.contains { control in
                control.path.canRunTogether(with: sync.path) && (alwaysTrue || control.path.isPrefix(of: sync.path))
            }
            let bound = classes.first { item in
                guard !item.deviceOnly.isEmpty, item.fact.path.canRunTogether(with: sync.path) else { return false }
                return alwaysTrue
                    || (item.values.onlyConstants != nil && item.deviceOnly.count == item.values.constants.count
                        && item.fact.path.isPrefix(of: sync.path))
            }
            guard controlled || bound != nil else { continue }
            // Only an access control makes the add fail; a ThisDeviceOnly item is stored and simply stays here.
            var message =
                controlled
                ? "a synchronizable item cannot use an access control: the add fails with errSecParam"
                : "a synchronizable item with a ThisDeviceOnly class is stored but does not sync: it never "
                    + "reaches the user's other devices; use kSecAttrAccessibleAfterFirstUnlock or WhenUnlocked "
                    + "for a synced item, or drop kSecAttrSynchronizable"
            var traced: [String] = []
            if !flag.isOnlyConstantsWritten(in: sync.value) {
                traced.append("kSecAttrSynchronizable can be true here: \(flag.describe(isTrue, heldBy: sync.value))")
            }
            if !controlled, let bound, !bound.values.isOnlyConstantsWritten(in: bound.fact.value) {
                traced.append(
                    "\(bound.deviceOnly[0].name) can be its class: "
                        + bound.values.describe(bound.deviceOnly, heldBy: bound.fact.value))
            }
            if !traced.isEmpty { message += " (" + traced.joined(separator: "; ") + ")" }
            collector.report(RuleCatalog.synchronizableConflict, at: sync.keyExpr.position, message)
        }
    }

    private func checkCall(
        _ call: KeychainCall, in function: Int, analysis: SourceAnalysis, into collector: inout FindingCollector
    ) {
        switch call.function {
        case .createAccessControl:
            let arguments = call.call.callArguments
            if arguments.count > 1 {
                reportAlways(writtenAs: arguments[1].value, in: function, byWrapper: false, analysis, into: &collector)
            }
        case .add:
            guard let query = call.query else { return }
            // The classes the item can be, on any path to the add.
            var itemClasses: [String] = []
            for fact in query.reachingFacts(for: KeychainSymbols.itemClass) {
                let values = analysis.possibleValues(of: fact.value, inFunction: function) { $0.hasPrefix("kSecClass") }
                itemClasses += values.constants.map(\.name)
            }
            let isCredential = itemClasses.contains(where: KeychainSymbols.credentialClasses.contains)
            if query.isComplete, !query.has(KeychainSymbols.accessible), !query.has(KeychainSymbols.accessControl),
                isCredential
            {
                collector.report(
                    RuleCatalog.addWithoutAccessibility, at: call.call.position,
                    "SecItemAdd without kSecAttrAccessible stores the item as WhenUnlocked: reads fail with "
                        + "errSecInteractionNotAllowed while the device is locked")
            }
            let isNamedCredential = itemClasses.contains { itemClass in
                KeychainSymbols.credentialClasses.contains(itemClass)
                    && (itemClass != "kSecClassGenericPassword" || Self.namesACredential(query))
            }
            guard isNamedCredential else { return }
            for fact in query.reachingFacts(for: KeychainSymbols.accessible) {
                reportMigration(writtenAs: fact.value, in: function, analysis, into: &collector)
            }
        default:
            break
        }
    }

    /// KL103 where a credential's class is written, when any value it can hold is a class without ThisDeviceOnly
    /// (Always classes are KL101's).
    private func reportMigration(
        writtenAs value: Expr, in function: Int, _ analysis: SourceAnalysis, into collector: inout FindingCollector
    ) {
        let values = analysis.possibleValues(
            of: value, inFunction: function, where: KeychainSymbols.isAccessibilityClass)
        let migrating = values.constants {
            !KeychainSymbols.isThisDeviceOnly($0) && !KeychainSymbols.alwaysClasses.contains($0)
        }
        guard let first = migrating.first else { return }
        let written = value.unwrapped
        let advice = "use \(first.name)ThisDeviceOnly if it is bound to this device"
        collector.report(
            RuleCatalog.accessibleMigrates, at: written.position,
            values.isOnlyConstantsWritten(in: written)
                ? "\(first.name) lets this credential move to other devices through backups; \(advice)"
                : "\(first.name) can be this credential's class here: \(values.describe(migrating, heldBy: written)); "
                    + "it lets the credential move to other devices through backups; \(advice)")
    }

    /// Whether a generic password's account, service, label or data is named like a credential.
    private static func namesACredential(_ query: DictionarySnapshot) -> Bool {
        let keys = [KeychainSymbols.account, KeychainSymbols.service, "kSecAttrLabel", "kSecValueData"]
        return keys.compactMap { query.fact(for: $0)?.value }.contains { value in
            let name = value.stringValue ?? value.unwrapped.terminalName ?? value.unwrapped.rootName ?? ""
            return SecretNames.verdict(forName: name) == .secret
        }
    }

    /// KL101 for a wrapper's accessibility argument (`keychain.accessibility(.always)`,
    /// `set(_:forKey:withAccessibility:)`, keychain-swift's `withAccess:`), followed to every value it can hold as an
    /// item's class is: a variable, a conditional, a helper. Code that never runs (`if false { ... }`) is left out.
    private func checkWrapperArguments(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        analysis.unit.visitLiveExpressions { expr, function in
            guard case .call(let callee, let arguments, _) = expr.kind else { return }
            let calleeName = callee.unwrapped.terminalName ?? ""
            for (index, argument) in arguments.enumerated() {
                let label = argument.label ?? (index == 0 ? calleeName : "")
                guard label.lowercased().contains("accessib") || label == "withAccess" else { continue }
                reportAlways(writtenAs: argument.value, in: function, byWrapper: true, analysis, into: &collector)
            }
        }
    }
}

extension SourceUnit {
    /// Visits every expression of the file: function bodies, property initializers and top-level code.
    package func visitAllExpressions(_ body: (Expr) -> Void) {
        for function in functions { function.body.visitExpressions(body) }
        for property in properties { property.initializer?.visit(body) }
        topLevel.visitExpressions(body)
    }
}

/// Questions about a value's shape that several rules ask.
package enum ValueShape {
    static func isTrue(_ expr: Expr, _ resolver: ConstantResolver) -> Bool {
        let value = expr.unwrapped
        switch value.kind {
        case .booleanLiteral(let flag): return flag
        case .identifier(let name): return name == "kCFBooleanTrue" || name == "YES"
        case .call(_, let arguments, _):
            return value.calleeName == "NSNumber" && arguments.count == 1 && isTrue(arguments[0].value, resolver)
        case .forceUnwrap(let inner): return isTrue(inner, resolver)
        default: return false
        }
    }
}
