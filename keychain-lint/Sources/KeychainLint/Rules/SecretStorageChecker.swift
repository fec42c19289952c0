/// KL401–KL403: credentials in UserDefaults-like stores, hard-coded secrets, and secrets in logs.
package struct SecretStorageChecker: SourceChecker {
    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        let properties = Dictionary(analysis.unit.properties.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for function in analysis.functions {
            let write = DefaultsWrite(function: function.decl, locals: function.flow.locals, properties: properties)
            // Code that a literal condition never runs (`if false { ... }`) stores, logs and hard-codes nothing.
            function.decl.body.visitLiveExpressions { check($0, write: write, into: &collector) }
        }
        let topLevel = FunctionDecl(
            name: "", labels: [], parameters: [], body: [], position: .unknown, compilationConditions: [])
        for property in analysis.unit.properties {
            let write = DefaultsWrite(function: topLevel, locals: [:], properties: properties)
            property.initializer?.visit { check($0, write: write, into: &collector) }
        }
        var variables = analysis.unit.properties
        for function in analysis.functions { function.decl.body.collectVariables(into: &variables) }
        for variable in variables {
            if let value = variable.initializer {
                checkAssignedLiteral(name: variable.name, value: value, into: &collector)
            }
            checkAppStorage(variable, into: &collector)
        }
        // `Client.shared.apiKey = "..."` and `self.password = "..."`.
        var assignments: [(target: Expr, value: Expr)] = []
        for function in analysis.functions { function.decl.body.collectAssignments(into: &assignments) }
        analysis.unit.topLevel.collectAssignments(into: &assignments)
        for assignment in assignments {
            guard let name = assignment.target.unwrapped.terminalName else { continue }
            let owner = assignment.target.unwrapped.dottedName ?? name
            checkAssignedLiteral(name: name, value: assignment.value, context: owner, into: &collector)
        }
    }

    private func check(_ expr: Expr, write: DefaultsWrite, into collector: inout FindingCollector) {
        guard case .call(let callee, let arguments, _) = expr.kind else {
            checkLiteral(expr, into: &collector)
            return
        }
        checkDefaultsWrite(expr, callee: callee, arguments: arguments, write: write, into: &collector)
        checkLogging(expr, callee: callee, arguments: arguments, into: &collector)
        checkLiteralSymmetricKey(expr, callee: callee, arguments: arguments, write: write, into: &collector)
        let calleeText = callee.unwrapped.dottedName ?? ""
        for argument in arguments {
            guard let label = argument.label else { continue }
            checkAssignedLiteral(name: label, value: argument.value, context: calleeText, into: &collector)
        }
        // `store.set("s3cret!", forKey: "adminPassword")`: the key names the literal stored under it.
        if case .member(_, let method) = callee.unwrapped.kind, Self.storeMethods.contains(method),
            arguments.count == 2, arguments[0].label == nil,
            let key = arguments.first(where: { $0.label == "forKey" })?.value,
            let keyName = key.stringValue ?? key.unwrapped.terminalName
        {
            checkAssignedLiteral(name: keyName, value: arguments[0].value, context: calleeText, into: &collector)
        }
    }

    // MARK: KL401

    private static let storeMethods: Set<String> = ["set", "setValue", "setObject", "setString", "setData"]

    private func checkDefaultsWrite(
        _ call: Expr, callee: Expr, arguments: [Argument], write: DefaultsWrite, into collector: inout FindingCollector
    ) {
        let receiver: Expr?
        let method: String
        switch callee.unwrapped.kind {
        case .member(let base, let name): (receiver, method) = (base, name)
        // `set(value, forKey:)` inside `extension UserDefaults`.
        case .identifier(let name): (receiver, method) = (nil, name)
        default: return
        }
        guard Self.storeMethods.contains(method), arguments.count == 2,
            let key = arguments.first(where: { $0.label == "forKey" || $0.label == "forKeyPath" })?.value,
            write.isDefaultsStore(receiver)
        else { return }
        let value = arguments[0].value.unwrapped
        switch value.kind {
        case .booleanLiteral, .integerLiteral, .floatLiteral, .nilLiteral, .binary, .prefix("!", _): return
        default: break
        }
        let keyVerdict =
            write.keyName(key).map { SecretNames.verdict(forName: $0.name, dropTrailingKeyWord: !$0.isLiteral) }
            ?? .neutral
        // The value is judged by the names it was encoded from (`password.data(using: .utf8)`, a dictionary's
        // values): a secret among them makes it one; otherwise one that is a flag, count or hash rules it out.
        let verdicts = Self.encodedSources(of: value).map {
            write.valueName($0).map { SecretNames.verdict(forName: $0) } ?? .neutral
        }
        let valueVerdict: SecretNames.Verdict =
            verdicts.contains(.secret) ? .secret : verdicts.contains(.notSecret) ? .notSecret : .neutral
        // Either name is enough (`set(password, forKey: "savedPassword")`), unless the value is a flag, count,
        // date or hash about the secret.
        guard keyVerdict == .secret || valueVerdict == .secret, valueVerdict != .notSecret else { return }
        let store = receiver?.dottedName ?? "UserDefaults"
        collector.report(
            RuleCatalog.secretInUserDefaults, at: call.position,
            "a credential is written to \(store), an unencrypted plist that backups and device tools can read; "
                + "store it in the keychain")
    }

    /// The values a stored value was encoded from, looking through conversions that keep the secret readable:
    /// `.data(using:)`, `Data(x.utf8)`, `.utf8`, base64, `String(data:encoding:)`, `String(decoding:as:)`, `!`, and
    /// a dictionary or array literal's values. Hashing and encryption are calls of other names and stop the search,
    /// so a digest or a ciphertext is judged by its own name.
    static func encodedSources(of value: Expr, depth: Int = 0) -> [Expr] {
        let value = value.unwrapped
        guard depth < 8 else { return [value] }
        let next = { (inner: Expr) in encodedSources(of: inner, depth: depth + 1) }
        switch value.kind {
        case .forceUnwrap(let inner):
            return next(inner)
        case .member(let base?, "utf8"), .member(let base?, "utf16"):
            return next(base)
        case .dictionary(let entries):
            return entries.flatMap { next($0.value) }
        case .array(let elements):
            return elements.flatMap(next)
        case .call(let callee, let arguments, _):
            switch callee.unwrapped.kind {
            case .member(let base?, let method)
            where method == "data" && arguments.first?.label == "using"
                || ["base64EncodedString", "base64EncodedData"].contains(method):
                return next(base)
            // `JSONEncoder().encode(value)`, `PropertyListEncoder().encode(value)`: serialised, still readable.
            case .member(_, "encode") where arguments.count == 1 && arguments[0].label == nil:
                return next(arguments[0].value)
            case .identifier(let type) where ["Data", "NSData", "Array"].contains(type) && arguments.count == 1:
                return next(arguments[0].value)
            case .identifier(let type) where ["String", "NSString"].contains(type):
                if let source = arguments.first(where: { ["data", "decoding", "bytes"].contains($0.label ?? "") }) {
                    return next(source.value)
                }
                return [value]
            default:
                return [value]
            }
        default:
            return [value]
        }
    }

    private func checkAppStorage(_ variable: VariableDecl, into collector: inout FindingCollector) {
        guard let attribute = variable.attributes.first(where: { $0.name == "AppStorage" || $0.name == "SceneStorage" })
        else { return }
        if let type = variable.typeName, ["Bool", "Int", "Double", "Date", "URL"].contains(type) { return }
        if let value = variable.initializer?.unwrapped.kind {
            switch value {
            case .booleanLiteral, .integerLiteral, .floatLiteral: return
            default: break
            }
        }
        let key = attribute.arguments.first?.value.stringValue ?? ""
        let verdicts = [SecretNames.verdict(forName: key), SecretNames.verdict(forName: variable.name)]
        guard !verdicts.contains(.notSecret), verdicts.contains(.secret) else { return }
        collector.report(
            RuleCatalog.secretInUserDefaults, at: variable.position,
            "@\(attribute.name) keeps \(variable.name) in UserDefaults, an unencrypted plist; store it in the keychain")
    }

    // MARK: KL402

    private func checkAssignedLiteral(
        name: String, value: Expr, context: String = "", into collector: inout FindingCollector
    ) {
        guard let text = value.stringValue else {
            checkAssignedKeyMaterial(name: name, value: value, into: &collector)
            return
        }
        let sdkKey =
            SecretNames.isSDKKeyName(name)
            || (SecretNames.namesPublishableSDK(context)
                && ["key", "token", "apikey"].contains(
                    SecretNames.words(name).last ?? ""))
        guard SecretNames.isSecretName(name) || sdkKey || SecretNames.hasPublishableFormat(text),
            SecretNames.looksLikeSecretValue(text, name: name) || SecretNames.hasPublishableFormat(text)
        else { return }
        if sdkKey || SecretNames.hasPublishableFormat(text) {
            reportPublishable(name: name, at: value.unwrapped.position, into: &collector)
            return
        }
        collector.report(
            RuleCatalog.hardCodedSecret, at: value.unwrapped.position,
            "\(name) is hard-coded: anyone can read it from the app bundle")
    }

    /// What key material is built from when it comes from the source text.
    enum KeyMaterial {
        case text(String)
        case bytes
    }

    /// The literal that a key is built from: `"..."`, `Data("...".utf8)`, `"...".data(using: .utf8)!`,
    /// `Array("...".utf8)`, `[UInt8]("...".utf8)`, a byte array literal, or `SymmetricKey(data:)` of one of these.
    /// `resolve` gives the initialiser of a constant, to follow `Data(material.utf8)` to `material`'s literal.
    static func keyMaterial(_ expr: Expr, resolve: (String) -> Expr? = { _ in nil }, depth: Int = 0) -> KeyMaterial? {
        guard depth < 8 else { return nil }
        let value = expr.unwrapped
        func inner(_ next: Expr) -> KeyMaterial? { keyMaterial(next, resolve: resolve, depth: depth + 1) }
        switch value.kind {
        case .stringLiteral(let text, let interpolations):
            return interpolations.isEmpty ? .text(text) : nil
        case .array(let elements):
            let bytes = elements.allSatisfy {
                if case .integerLiteral = $0.unwrapped.kind { return true }
                return false
            }
            return bytes && elements.count >= 8 ? .bytes : nil
        case .forceUnwrap(let wrapped):
            return inner(wrapped)
        case .member(let base?, "utf8"):
            return inner(base)
        case .identifier(let name):
            return resolve(name).flatMap(inner)
        case .call(let callee, let arguments, _):
            if case .member(let base?, "data") = callee.unwrapped.kind, arguments.first?.label == "using" {
                return inner(base)
            }
            // `SHA256.hash(data: "...")`: a key derived from a literal is fixed as well.
            if case .member(_, "hash") = callee.unwrapped.kind, arguments.count == 1, arguments[0].label == "data" {
                return inner(arguments[0].value)
            }
            guard arguments.count == 1, [nil, "data", "bytes", "base64Encoded"].contains(arguments[0].label)
            else { return nil }
            let type: String?
            switch callee.unwrapped.kind {
            case .identifier(let name): type = name
            case .array(let elements): type = elements.count == 1 ? elements[0].unwrapped.terminalName : nil
            default: type = nil
            }
            guard let type, ["Data", "NSData", "Array", "UInt8", "SymmetricKey", "ContiguousArray"].contains(type)
            else { return nil }
            return inner(arguments[0].value)
        default:
            return nil
        }
    }

    /// `let aesKey = Data("...".utf8)`, `let secretKeyBytes: [UInt8] = [0x01, ...]`: a name for key material given
    /// a value built from a literal.
    private func checkAssignedKeyMaterial(name: String, value: Expr, into collector: inout FindingCollector) {
        guard SecretNames.isSecretName(name), !SecretNames.isSDKKeyName(name),
            let material = Self.keyMaterial(value)
        else { return }
        if case .text(let text) = material {
            guard SecretNames.looksLikeSecretValue(text, name: name), !SecretNames.hasPublishableFormat(text) else {
                return
            }
        }
        collector.report(
            RuleCatalog.hardCodedSecret, at: value.unwrapped.position,
            "\(name) is key material built from a literal: anyone can read it from the app bundle")
    }

    /// `SymmetricKey(data: Data("...".utf8))`: a key built from a literal is hard-coded whatever it is called.
    private func checkLiteralSymmetricKey(
        _ call: Expr, callee: Expr, arguments: [Argument], write: DefaultsWrite, into collector: inout FindingCollector
    ) {
        guard case .identifier("SymmetricKey") = callee.unwrapped.kind, arguments.count == 1,
            arguments[0].label == "data",
            Self.keyMaterial(arguments[0].value, resolve: { write.initializer(of: $0) }) != nil
        else { return }
        collector.report(
            RuleCatalog.hardCodedSecret, at: call.position,
            "this SymmetricKey is built from a literal: anyone can read the key from the app bundle")
    }

    private func reportPublishable(name: String?, at position: SourcePosition, into collector: inout FindingCollector) {
        collector.report(
            RuleCatalog.publishableKey, at: position,
            (name.map { "\($0) is" } ?? "this literal is")
                + " a key meant to ship in the app (an SDK or API client key): it is not secret, so restrict it to "
                + "your bundle id and its APIs in the provider's console rather than hiding it")
    }

    private func checkLiteral(_ expr: Expr, into collector: inout FindingCollector) {
        if case .dictionary(let entries) = expr.kind {
            for entry in entries {
                guard let key = entry.key.stringValue else { continue }
                checkAssignedLiteral(name: key, value: entry.value, into: &collector)
            }
        }
        if case .stringLiteral(let text, let interpolations) = expr.kind, interpolations.isEmpty,
            SecretNames.hasPublishableFormat(text)
        {
            reportPublishable(name: nil, at: expr.position, into: &collector)
        } else if case .stringLiteral(let text, let interpolations) = expr.kind, interpolations.isEmpty,
            SecretNames.hasKnownSecretFormat(text)
        {
            collector.report(
                RuleCatalog.hardCodedSecret, at: expr.position,
                "this literal has the format of a live credential or private key: anyone can read it from the "
                    + "app bundle"
            )
        }
    }

    // MARK: KL403

    private static let logFunctions: Set<String> = ["print", "debugPrint", "NSLog", "os_log", "NSLogv", "dump"]
    private static let loggerMethods: Set<String> = [
        "debug", "info", "notice", "error", "warning", "fault", "trace", "critical", "log", "verbose",
    ]

    private func checkLogging(_ call: Expr, callee: Expr, arguments: [Argument], into collector: inout FindingCollector)
    {
        let target = callee.unwrapped
        var isLog = false
        if case .identifier(let name) = target.kind { isLog = Self.logFunctions.contains(name) }
        if case .member(let receiver?, let method) = target.kind, Self.loggerMethods.contains(method) {
            let text = (receiver.dottedName ?? "").lowercased()
            isLog = text.contains("log")
        }
        guard isLog else { return }
        // os_log redacts arguments whose specifier says so; an explicit private format is not a leak.
        if callee.unwrapped.terminalName == "os_log",
            let format = arguments.lazy.compactMap({ $0.value.stringValue }).first,
            format.contains("{private}") || format.contains("{sensitive}"), !format.contains("{public}")
        {
            return
        }
        for argument in arguments {
            let value = argument.value.unwrapped
            if case .stringLiteral(_, let interpolations) = value.kind {
                for part in interpolations where !Self.isRedacted(part) {
                    reportIfSecret(part.value, into: &collector)
                }
            } else {
                reportIfSecret(value, into: &collector)
            }
        }
    }

    private static func isRedacted(_ part: Interpolation) -> Bool {
        part.arguments.contains { argument in
            argument.label == "privacy"
                && ["private", "sensitive"].contains(argument.value.unwrapped.terminalName ?? "")
        }
    }

    private func reportIfSecret(_ value: Expr, into collector: inout FindingCollector) {
        let inner = value.unwrapped
        let name: String?
        switch inner.kind {
        case .identifier(let identifier): name = identifier
        case .member(_, let member): name = member
        case .forceUnwrap(let wrapped): name = wrapped.unwrapped.terminalName
        default: name = nil
        }
        guard let name, SecretNames.isSecretName(name) else { return }
        collector.report(
            RuleCatalog.secretInLog, at: inner.position,
            "\(name) is written to the log, which the device console and sysdiagnose archives keep")
    }
}

extension Array where Element == Stmt {
    /// Collects assignments at any depth, closures excluded, and arms that a literal condition never takes too.
    func collectAssignments(into assignments: inout [(target: Expr, value: Expr)]) {
        for statement in self {
            if case .assignment(let target, "=", let value) = statement.kind { assignments.append((target, value)) }
            for arm in statement.liveArms { arm.collectAssignments(into: &assignments) }
        }
    }

    /// Collects local variable declarations at any depth, closures and arms that a literal condition never takes
    /// excluded.
    func collectVariables(into variables: inout [VariableDecl]) {
        for statement in self {
            if case .variable(let decl) = statement.kind { variables.append(decl) }
            for arm in statement.liveArms { arm.collectVariables(into: &variables) }
        }
    }
}
