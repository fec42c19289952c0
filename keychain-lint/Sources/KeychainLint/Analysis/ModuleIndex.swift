/// Facts gathered from every scanned file before the rules run, so a rule in one file can follow a constant
/// or a wrapper function declared in another.
package struct ModuleIndex: Sendable {
    package var resolver: ConstantResolver
    /// Signatures (`deleteNoLock(_:)`) of functions that delete keychain items, directly or through another.
    package var deletingFunctions: Set<String>
    /// Signatures of functions that read keychain items (`SecItemCopyMatching`), directly or through another.
    package var readingFunctions: Set<String> = []
    /// True when the project's build settings target macOS only (`SDKROOT = macosx`).
    package var isMacOSProject = false
    /// What each property, and function without parameters, of the module can give, by name: the keychain constants,
    /// access-control flags and wrapper options it is traced to within its file (`ConstantOrigins`), each marked with
    /// that file. A name declared in several files with different values is left out, as `resolver`'s aliases are.
    package var namedValues: [String: PossibleValues] = [:]

    package init(resolver: ConstantResolver = ConstantResolver(), deletingFunctions: Set<String> = []) {
        self.resolver = resolver
        self.deletingFunctions = deletingFunctions
    }

    package init(units: [SourceUnit]) {
        var aliases: [String: String] = [:]
        var ambiguous: Set<String> = []
        func record(_ name: String, _ symbol: String) {
            if let existing = aliases[name], existing != symbol { ambiguous.insert(name) }
            aliases[name] = symbol
        }
        let plain = ConstantResolver()
        for unit in units {
            for property in unit.properties {
                if let value = property.initializer, let symbol = plain.symbol(of: value) {
                    record(property.name, symbol)
                }
            }
            // Computed constants: `static var accessible: String { kSecAttrAccessible as String }`.
            for function in unit.functions where function.parameters.isEmpty && function.body.count == 1 {
                let value: Expr?
                switch function.body[0].kind {
                case .returnStatement(let returned): value = returned
                case .expression(let expr): value = expr
                default: value = nil
                }
                if let value, let symbol = plain.symbol(of: value) { record(function.name, symbol) }
            }
        }
        for name in ambiguous { aliases[name] = nil }
        resolver = ConstantResolver(moduleAliases: aliases)
        namedValues = Self.namedValues(in: units)

        // Each body is visited once for the calls it makes; reachability is then worked out on signatures alone.
        var callees: [String: Set<String>] = [:]
        for function in units.flatMap(\.functions) {
            var called: Set<String> = []
            function.body.visitExpressions { expr in
                guard case .call = expr.kind else { return }
                called.insert(expr.callSignature)
                if let name = expr.calleeName, KeychainFunction(rawValue: name) != nil { called.insert(name) }
            }
            callees[function.signature, default: []].formUnion(called)
        }
        deletingFunctions = Self.functions(in: callees, reaching: KeychainFunction.delete.rawValue)
        readingFunctions = Self.functions(in: callees, reaching: KeychainFunction.copyMatching.rawValue)
    }

    /// See `namedValues`. Only declarations that name a keychain constant, flag or wrapper option are traced.
    private static func namedValues(in units: [SourceUnit]) -> [String: PossibleValues] {
        func namesAConstant(_ visit: ((Expr) -> Void) -> Void) -> Bool {
            var found = false
            visit { expr in
                if let name = expr.terminalName, KeychainSymbols.isTracedValue(name) { found = true }
            }
            return found
        }
        var table: [String: PossibleValues] = [:]
        var ambiguous: Set<String> = []
        for unit in units {
            var names: [String] = []
            for property in unit.properties {
                if let value = property.initializer, namesAConstant(value.visit) { names.append(property.name) }
            }
            for function in unit.functions
            where function.parameters.isEmpty && !["init", "deinit", "subscript"].contains(function.name)
                && namesAConstant(function.body.visitExpressions)
            {
                names.append(function.name)
            }
            guard !names.isEmpty else { continue }
            let origins = ConstantOrigins(unit: unit)
            for name in Set(names) {
                guard var values = origins.possibleValues(ofDeclared: name, isLeaf: KeychainSymbols.isTracedValue),
                    !values.constants.isEmpty
                else { continue }
                for index in values.constants.indices { values.constants[index].file = unit.path }
                if let existing = table[name],
                    Set(existing.constants.map(\.name)) != Set(values.constants.map(\.name))
                        || existing.includesOthers != values.includesOthers
                {
                    ambiguous.insert(name)
                }
                table[name] = values
            }
        }
        for name in ambiguous { table[name] = nil }
        return table
    }

    /// Signatures of the functions that call `target`, directly or through one another.
    private static func functions(in callees: [String: Set<String>], reaching target: String) -> Set<String> {
        var callers: [String: [String]] = [:]
        for (caller, called) in callees {
            for callee in called { callers[callee, default: []].append(caller) }
        }
        var found: Set<String> = []
        var pending = callers[target] ?? []
        while let signature = pending.popLast() {
            guard found.insert(signature).inserted else { continue }
            pending += callers[signature] ?? []
        }
        return found
    }

    /// Whether build settings describe a macOS-only target: `SDKROOT = macosx` and no iOS-family SDK or platform.
    package static func targetsMacOSOnly(_ settings: [BuildSettingsFile.Setting]) -> Bool {
        let platformValues = settings.filter { $0.name == "SDKROOT" || $0.name == "SUPPORTED_PLATFORMS" }
            .map { $0.value.lowercased() }
        guard platformValues.contains(where: { $0.contains("macosx") }) else { return false }
        let others = ["iphoneos", "iphonesimulator", "appletvos", "watchos", "xros"]
        return !platformValues.contains { value in others.contains(where: value.contains) }
    }
}

extension ModuleIndex {
    /// Whether a call reaches one of the module's deleting functions. A bare name such as `remove(_:)` is trusted
    /// only when the file declares it or the receiver is plainly a keychain wrapper, since common names collide.
    package func isDeletingCall(_ call: Expr, localFunctions: Set<String>) -> Bool {
        isModuleCall(call, into: deletingFunctions, localFunctions: localFunctions)
    }

    /// Whether a call reaches one of the module's reading functions, trusted as `isDeletingCall` trusts deletes.
    package func isReadingCall(_ call: Expr, localFunctions: Set<String>) -> Bool {
        isModuleCall(call, into: readingFunctions, localFunctions: localFunctions)
    }

    private func isModuleCall(_ call: Expr, into functions: Set<String>, localFunctions: Set<String>) -> Bool {
        let signature = call.callSignature
        guard functions.contains(signature) else { return false }
        if let receiver = call.callReceiver {
            let text = (receiver.dottedName ?? "").lowercased()
            if text == "self" { return localFunctions.contains(signature) }
            return text.contains("keychain") || text.contains("vault") || text.contains("valet")
        }
        return localFunctions.contains(signature)
    }
}

extension Expr {
    /// `name(label:_:)` for a call, matching `FunctionDecl.signature`.
    package var callSignature: String {
        guard case .call(let callee, let arguments, _) = kind, let name = callee.unwrapped.terminalName else {
            return ""
        }
        return name + "(" + arguments.map { ($0.label ?? "_") + ":" }.joined() + ")"
    }
}
