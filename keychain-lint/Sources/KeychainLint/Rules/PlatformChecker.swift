/// KL501 and KL503 in code; also notes required-reason API use for the project-wide privacy manifest check.
package struct PlatformChecker: SourceChecker {
    /// Names that use an API Apple lists as needing a declared reason, by privacy-manifest category.
    private static let requiredReasonNames: [String: String] = [
        "UserDefaults": "NSPrivacyAccessedAPICategoryUserDefaults",
        "NSUserDefaults": "NSPrivacyAccessedAPICategoryUserDefaults",
        "fileModificationDate": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "creationDateKey": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "contentModificationDateKey": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "NSFileCreationDate": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "NSFileModificationDate": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "systemUptime": "NSPrivacyAccessedAPICategorySystemBootTime",
        "mach_absolute_time": "NSPrivacyAccessedAPICategorySystemBootTime",
        "volumeAvailableCapacityKey": "NSPrivacyAccessedAPICategoryDiskSpace",
        "volumeAvailableCapacityForImportantUsageKey": "NSPrivacyAccessedAPICategoryDiskSpace",
        "systemFreeSize": "NSPrivacyAccessedAPICategoryDiskSpace",
        "NSFileSystemFreeSize": "NSPrivacyAccessedAPICategoryDiskSpace",
        "activeInputModes": "NSPrivacyAccessedAPICategoryActiveKeyboards",
    ]

    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        checkFileBasedKeychain(analysis, into: &collector)
        checkCommonCrypto(analysis, into: &collector)
        var seen: Set<String> = []
        func note(_ expr: Expr) {
            guard let name = expr.terminalName, let category = Self.requiredReasonNames[name],
                !seen.contains(category)
            else { return }
            seen.insert(category)
            collector.signals.requiredReasonUses.append((collector.path, expr.position, category))
        }
        for function in analysis.unit.functions
        where !function.compilationConditions.contains(where: { Block.isDevelopmentOnly($0) }) {
            function.body.visitShippingExpressions(note)
        }
        for property in analysis.unit.properties
        where !property.compilationConditions.contains(where: { Block.isDevelopmentOnly($0) }) {
            property.initializer?.visit(note)
        }
        analysis.unit.topLevel.visitShippingExpressions(note)
    }

    /// KL501. A synchronizable item uses the data protection keychain, but only when the flag is true on every path
    /// that writes it: the arm that makes it false adds to the file-based keychain.
    private func checkFileBasedKeychain(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        for (index, function) in analysis.functions.enumerated() {
            for call in function.flow.calls where call.function == .add {
                guard analysis.isMacOS(function.decl.compilationConditions + call.compilationConditions) else {
                    continue
                }
                guard let query = call.query, query.isComplete, !query.has(KeychainSymbols.dataProtectionKeychain)
                else { continue }
                let flags = analysis.reachingValues(
                    of: KeychainSymbols.synchronizable, in: query, inFunction: index, where: KeychainSymbols.isBoolean)
                let isSynchronized = flags.allSatisfy { _, values in values.isAlways(KeychainSymbols.isTrue) }
                guard flags.isEmpty || !isSynchronized else { continue }
                var message =
                    "on macOS this item goes to the file-based keychain, which ignores kSecAttrAccessible and "
                    + "access groups; add kSecUseDataProtectionKeychain: true"
                if let note = Self.falseFlagNote(flags) { message += " (\(note))" }
                collector.report(RuleCatalog.macOSFileKeychain, at: call.call.position, message)
            }
        }
    }

    /// Where the synchronizable flag is false, when the message needs it: the flag is traced, or true elsewhere.
    private static func falseFlagNote(_ flags: [(fact: DictionaryFact, values: PossibleValues)]) -> String? {
        for (fact, values) in flags {
            let falseValues = values.constants.filter { !KeychainSymbols.isTrue($0.name) }
            guard let first = falseValues.first else { continue }
            if values.isOnlyConstantsWritten(in: fact.value) {
                guard flags.count > 1 else { return nil }
                return "kSecAttrSynchronizable can be false here: it is written false on line \(first.position.line)"
            }
            return "kSecAttrSynchronizable can be false here: \(values.describe(falseValues, heldBy: fact.value))"
        }
        return nil
    }

    /// KL503 at each CommonCrypto cipher call, with the mode, IV and key it is given. Imports, hashing and HMAC
    /// are not reported: CommonCrypto's digests are sound, and a cipher may come in through a bridging header.
    private func checkCommonCrypto(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        // An IV or key is often a file-level constant (`private let kIV = "..."`); locals shadow them.
        var fileConstants: [String: Expr] = [:]
        for property in analysis.unit.properties where property.isConstant {
            if let value = property.initializer { fileConstants[property.name] = value }
        }
        for function in analysis.functions {
            // A cipher called in an arm that a literal condition never takes encrypts nothing.
            function.decl.body.visitLiveExpressions { expr in
                guard let name = expr.calleeName, let layout = CipherCallLayout.byFunction[name] else { return }
                let arguments = expr.callArguments
                guard arguments.count > max(layout.options, layout.iv, layout.key) else { return }
                var known = fileConstants.merging(function.flow.locals) { _, local in local }
                // A buffer filled in place (`SecRandomCopyBytes(..., &iv)`) is not the constant it started as.
                for name in Self.namesWrittenInPlace(function.decl.body) { known[name] = nil }
                let problems = CipherCallLayout.problems(
                    of: arguments.map(\.value), layout: layout, locals: known)
                let message =
                    "\(name) encrypts with CommonCrypto"
                    + (problems.isEmpty ? "" : " using " + problems.joined(separator: ", "))
                    + ": it has no authentication and leaves modes, IVs and padding to the caller; CryptoKit's "
                    + "AES.GCM with a key from the keychain or the Secure Enclave does this safely"
                collector.report(
                    RuleCatalog.commonCrypto, at: expr.position, message, severity: problems.isEmpty ? .low : .medium)
            }
        }
    }
}

extension PlatformChecker {
    /// Names passed as `&name` or written through `name.withUnsafeMutableBytes`.
    fileprivate static func namesWrittenInPlace(_ body: Block) -> Set<String> {
        var names: Set<String> = []
        body.visitLiveExpressions { expr in
            if case .prefix("&", let operand) = expr.kind, case .identifier(let name) = operand.unwrapped.kind {
                names.insert(name)
            }
            if let name = expr.calleeName, name.hasPrefix("withUnsafeMutable"),
                case .identifier(let receiver)? = expr.callReceiver?.unwrapped.kind
            {
                names.insert(receiver)
            }
        }
        return names
    }
}

/// Where the options (or mode), IV and key are among a CommonCrypto cipher function's arguments.
struct CipherCallLayout {
    var options: Int
    var iv: Int
    var key: Int
    /// CCCryptorCreateWithMode takes a mode constant instead of option flags.
    var takesMode = false

    static let byFunction: [String: CipherCallLayout] = [
        "CCCrypt": CipherCallLayout(options: 2, iv: 5, key: 3),
        "CCCryptorCreate": CipherCallLayout(options: 2, iv: 5, key: 3),
        "CCCryptorCreateFromData": CipherCallLayout(options: 2, iv: 5, key: 3),
        "CCCryptorCreateWithMode": CipherCallLayout(options: 1, iv: 4, key: 5, takesMode: true),
    ]

    /// Describes what is weak in a call: ECB, a missing or constant IV, a key made from a string.
    static func problems(of arguments: [Expr], layout: CipherCallLayout, locals: [String: Expr]) -> [String] {
        var problems: [String] = []
        var names: Set<String> = []
        arguments[layout.options].visit { if let name = $0.terminalName { names.insert(name) } }
        let isECB = names.contains("kCCOptionECBMode") || names.contains("kCCModeECB")
        if isECB { problems.append("ECB mode (equal blocks encrypt to equal blocks)") }
        let iv = resolve(arguments[layout.iv], locals)
        if !isECB {
            if isNull(iv) {
                problems.append("no IV (a zero IV)")
            } else if isConstant(iv) {
                problems.append("a constant IV")
            }
        }
        if isFromString(resolve(arguments[layout.key], locals), locals) { problems.append("a key from a string") }
        return problems
    }

    private static func resolve(_ expr: Expr, _ locals: [String: Expr]) -> Expr {
        var current = expr.unwrapped
        for _ in 0..<4 {
            if case .identifier(let name) = current.kind, let bound = locals[name] {
                current = bound.unwrapped
            } else if case .call(let callee, let arguments, _) = current.kind, arguments.count == 1,
                ["UnsafePointer", "UnsafeRawPointer", "UnsafeMutableRawPointer"].contains(callee.terminalName ?? "")
            {
                current = arguments[0].value.unwrapped
            } else {
                break
            }
        }
        return current
    }

    private static func isNull(_ expr: Expr) -> Bool {
        if case .nilLiteral = expr.kind { return true }
        return ["NULL", "nil", "Nil"].contains(expr.terminalName ?? "")
    }

    /// A literal, an array of literals, `[UInt8](repeating: 0, count: 16)` or bytes of a string literal.
    private static func isConstant(_ expr: Expr) -> Bool {
        var hasDynamicPart = false
        var hasLiteral = false
        expr.visit { part in
            switch part.kind {
            case .stringLiteral, .integerLiteral: hasLiteral = true
            case .identifier(let name):
                if !["UInt8", "Array", "Data", "utf8", "count", "repeating", "kCCBlockSizeAES128"].contains(name) {
                    hasDynamicPart = true
                }
            case .call:
                if let name = part.calleeName,
                    ["random", "SecRandomCopyBytes", "randomBytes", "generate"]
                        .contains(where: name.contains)
                {
                    hasDynamicPart = true
                }
            default: break
            }
        }
        return hasLiteral && !hasDynamicPart
    }

    /// `"...".data(using: .utf8)`, `Array("...".utf8)`, `[@"..." dataUsingEncoding:]` and names bound to them.
    private static func isFromString(_ expr: Expr, _ locals: [String: Expr]) -> Bool {
        var found = false
        expr.visit { part in
            if case .stringLiteral = part.kind { found = true }
            if case .identifier(let name) = part.kind, let bound = locals[name] {
                bound.visit { inner in if case .stringLiteral = inner.kind { found = true } }
            }
        }
        return found
    }
}
