/// KL303–KL304: biometric access control and LocalAuthentication used as a gate; also notes biometric use for
/// the project-wide NSFaceIDUsageDescription check.
package struct AccessControlChecker: SourceChecker {
    private static let biometryAnyNames: Set<String> = [
        "biometryAny", "touchIDAny", "kSecAccessControlBiometryAny", "kSecAccessControlTouchIDAny",
    ]
    private static let biometricNames: Set<String> = [
        "biometryAny", "biometryCurrentSet", "touchIDAny", "touchIDCurrentSet", "kSecAccessControlBiometryAny",
        "kSecAccessControlBiometryCurrentSet", "kSecAccessControlTouchIDAny", "kSecAccessControlTouchIDCurrentSet",
        "deviceOwnerAuthenticationWithBiometrics", "LAPolicyDeviceOwnerAuthenticationWithBiometrics",
        "deviceOwnerAuthentication", "LAPolicyDeviceOwnerAuthentication", "userPresence",
        "kSecAccessControlUserPresence",
    ]
    /// Names that show the code binds authentication to a keychain item rather than trusting a boolean. An
    /// `LARight` alone is not one: its authorization is a state in the app's process, like evaluatePolicy's
    /// result; a persisted right's secret (`rawData`, `loadData` on a `secret`) or key is. An access control binds
    /// authentication only when its flags ask for some (see `bindsAuthentication`).
    private static let boundAuthenticationNames: Set<String> = [
        "kSecUseAuthenticationContext", "kSecAttrAccessControl", "evaluateAccessControl", "LARightStore",
        "LAPersistedRight", "kSecUseOperationPrompt",
    ]
    /// Access-control flags that ask for no authentication: a key usable by the app alone.
    private static let unauthenticatedFlagNames: Set<String> = [
        "privateKeyUsage", "kSecAccessControlPrivateKeyUsage", "SecAccessControlCreateFlags", "or", "and",
    ]

    /// Whether an expression shows the file binds authentication to a keychain item: one of the names above, a
    /// persisted right's secret (`right.secret.loadData()`, `secret.rawData`; a table's `loadData()` or a packet's
    /// `rawData` is not one), or `SecAccessControlCreateWithFlags` with flags that ask for authentication (flags
    /// the analyzer cannot read count; `.privateKeyUsage` alone does not).
    private static func bindsAuthentication(_ expr: Expr) -> Bool {
        switch expr.kind {
        case .member(let base, let name) where name == "rawData" || name == "loadData":
            return base?.unwrapped.terminalName?.lowercased().contains("secret") == true
        case .call(let callee, let arguments, _)
        where callee.unwrapped.terminalName == KeychainFunction.createAccessControl.rawValue:
            guard arguments.count >= 3 else { return true }
            var names: [String] = []
            arguments[2].value.visit { if let name = $0.terminalName { names.append(name) } }
            return names.contains { !unauthenticatedFlagNames.contains($0) }
        default:
            return expr.terminalName.map(boundAuthenticationNames.contains) ?? false
        }
    }
    private static let flagLabels: Set<String> = ["flags", "authenticationPolicy", "accessControl", "policy"]
    /// Callbacks through which an authenticator hands its result to callers.
    private static let resultHandlers: Set<String> = [
        "completion", "completionHandler", "reply", "callback", "handler", "resume",
    ]
    private static let userPresenceNames: Set<String> = ["userPresence", "kSecAccessControlUserPresence"]
    /// Words of calls and names that show an authentication result releases a secret or a privileged action.
    private static let privilegedWords: Set<String> = [
        "decrypt", "decrypted", "reveal", "login", "logged", "signin", "pay", "payment",
        "payments", "transfer", "withdraw", "purchase", "export", "seed", "mnemonic", "recovery", "private",
        "wallet", "vault", "keychain", "credential", "credentials", "session", "authorize", "approve", "backup",
        // An app lock: the flag or the call that opens the app is what the evaluation guards.
        "unlock", "unlocked", "authenticated", "authorized", "secret", "secrets",
    ]

    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        var bindsAuthentication = false
        var firstBiometricUse: SourcePosition?
        // Code that a literal condition never runs (`if false { ... }`) neither binds nor uses biometrics.
        analysis.unit.visitLiveExpressions { expr, _ in
            if Self.bindsAuthentication(expr) { bindsAuthentication = true }
            guard case .call(_, let arguments, _) = expr.kind, let callee = expr.calleeName else { return }
            // Biometrics are in use where a policy is evaluated or an access control asks for them; a name in a
            // switch or a mapping table is not a use.
            if firstBiometricUse == nil, Self.isBiometricUse(callee: callee, arguments: arguments) {
                firstBiometricUse = expr.position
            }
        }
        // The flags of items, in code that can run: an arm that `if false` never takes writes no item.
        var wrapperFlags: [(value: Expr, function: Int?)] = []
        analysis.unit.visitLiveExpressions { expr, function in
            if case .member(let base?, "biometry") = expr.kind, base.terminalName == "LAAuthenticationRequirement" {
                reportAnyBiometryRequirement(expr, spelledOutReported: false, into: &collector)
            }
            guard case .call(_, let arguments, _) = expr.kind, let callee = expr.calleeName else { return }
            if callee == "LARight" {
                for argument in arguments where argument.label == "requirement" {
                    reportAnyBiometryRequirement(argument.value, spelledOutReported: true, into: &collector)
                }
            }
            if callee == KeychainFunction.createAccessControl.rawValue {
                for argument in arguments { reportBiometryAny(in: argument.value, into: &collector) }
                for argument in arguments.dropFirst(2) { reportUserPresence(in: argument.value, into: &collector) }
            } else {
                for argument in arguments where Self.flagLabels.contains(argument.label ?? "") {
                    reportBiometryAny(in: argument.value, into: &collector)
                    wrapperFlags.append((argument.value, function))
                }
            }
        }
        var variables = analysis.unit.properties
        for function in analysis.functions {
            function.decl.body.visitLiveStatements { statement in
                if case .variable(let decl) = statement.kind { variables.append(decl) }
            }
        }
        var flagVariables: Set<String> = []
        for variable in variables where variable.typeName?.contains("SecAccessControlCreateFlags") == true {
            flagVariables.insert(variable.name)
            if let value = variable.initializer { reportBiometryAny(in: value, into: &collector) }
        }
        // `flags.insert(.biometryAny)`: a flag added after the declaration.
        analysis.unit.visitLiveExpressions { expr, _ in
            guard let method = expr.calleeName, ["insert", "formUnion", "update"].contains(method),
                let receiver = expr.callReceiver?.unwrapped.terminalName, flagVariables.contains(receiver)
            else { return }
            for argument in expr.callArguments { reportBiometryAny(in: argument.value, into: &collector) }
        }
        for (index, function) in analysis.functions.enumerated() {
            for call in function.flow.calls where call.function == .createAccessControl {
                let arguments = call.call.callArguments
                guard arguments.count > 2 else { continue }
                reportBiometryAnyReaching(arguments[2].value, in: index, analysis, into: &collector)
            }
        }
        for flags in wrapperFlags {
            reportBiometryAnyReaching(flags.value, in: flags.function, analysis, into: &collector)
        }
        if !bindsAuthentication {
            for function in analysis.functions { reportBooleanGates(in: function.decl, into: &collector) }
        }
        if let firstBiometricUse {
            collector.signals.biometricUses.append((collector.path, firstBiometricUse))
        }
    }

    private static func isBiometricUse(callee: String, arguments: [Argument]) -> Bool {
        guard ["evaluatePolicy", "canEvaluatePolicy", KeychainFunction.createAccessControl.rawValue].contains(callee)
        else { return false }
        var found = false
        for argument in arguments {
            argument.value.visit { part in
                if let name = part.terminalName, biometricNames.contains(name) { found = true }
            }
        }
        return found
    }

    /// KL304 for each evaluatePolicy (or LARight authorization) in a body: medium when what it guards touches a
    /// secret or a privileged operation, low when it only confirms a step of the interface.
    private func reportBooleanGates(in function: FunctionDecl, into collector: inout FindingCollector) {
        let body = function.body
        var evaluations: [Expr] = []
        // A result handed to a caller (a completion, a reply, a return) may guard anything: judged as a secret gate.
        // So does a function whose own name says what it opens (`unlockVault`).
        var guardsSecret =
            body.returnsEvaluation || SecretNames.words(function.name).contains(where: Self.privilegedWords.contains)
        body.visitLiveExpressions { expr in
            if let callee = expr.calleeName, callee == "evaluatePolicy" || callee == "authorize",
                expr.callArguments.contains(where: { $0.label == "localizedReason" })
            {
                evaluations.append(expr)
                if EvaluatedContextUse.repliesToCaller(expr) { guardsSecret = true }
                return
            }
            if let callee = expr.calleeName, Self.resultHandlers.contains(callee), !expr.callArguments.isEmpty {
                guardsSecret = true
            }
            // The evaluation's own callee (`right.authorize`) says nothing of what it guards.
            guard !guardsSecret, let name = expr.terminalName,
                !evaluations.contains(where: { $0.position == expr.position })
            else { return }
            let lower = name.lowercased()
            if name.hasPrefix("SecItem") || SecretNames.isSecretName(name)
                || SecretNames.words(name).contains(where: Self.privilegedWords.contains)
                || lower.contains("signin") || lower.contains("login")
            {
                guardsSecret = true
            }
        }
        for evaluation in evaluations where !EvaluatedContextUse.handsOnContext(of: evaluation, in: body) {
            let gate =
                evaluation.calleeName == "authorize"
                ? "an LARight's authorization (a state in the app's process)" : "evaluatePolicy's boolean"
            if guardsSecret {
                collector.report(
                    RuleCatalog.evaluatePolicyGate, at: evaluation.position,
                    "\(gate) is the only thing guarding a secret or privileged operation here and can be patched to "
                        + "true; protect the secret with SecAccessControl and read it with "
                        + "kSecUseAuthenticationContext, or keep it in LARightStore and read the right's secret")
            } else {
                collector.report(
                    RuleCatalog.evaluatePolicyGate, at: evaluation.position,
                    "\(gate) gates only a step of the interface here (no secret or privileged operation follows), "
                        + "so patching it skips a confirmation; bind it to a keychain item if it ever guards data",
                    severity: .low)
            }
        }
    }

    private func reportUserPresence(in expr: Expr, into collector: inout FindingCollector) {
        expr.visit { part in
            guard let name = part.terminalName, Self.userPresenceNames.contains(name) else { return }
            if case .member(let base?, _) = part.kind, base.terminalName != "SecAccessControlCreateFlags" { return }
            collector.report(
                RuleCatalog.userPresenceFallback, at: part.position,
                "\(name) accepts the device passcode in place of biometrics: anyone who knows the passcode can "
                    + "read this item; a policy choice, use .biometryCurrentSet where only the enrolled user may")
        }
    }

    /// KL303 for a right's requirement of any enrolled biometry: `.biometry`, or `.biometry(fallback: .default)`,
    /// the requirement whose items a persisted right keeps under `.biometryAny`.
    /// - Parameter spelledOutReported: whether `LAAuthenticationRequirement.biometry` written out is reported by
    ///   the pass over every expression, so that an argument spelled so is not reported twice.
    private func reportAnyBiometryRequirement(
        _ expr: Expr, spelledOutReported: Bool, into collector: inout FindingCollector
    ) {
        var member = expr
        if case .call(let callee, let arguments, _) = expr.kind {  // .biometry(fallback: …)
            // The passcode as the fallback makes it `.userPresence`'s kind of requirement.
            if arguments.contains(where: { $0.value.terminalName == "devicePasscode" }) { return }
            member = callee
        }
        guard case .member(let base, "biometry") = member.kind else { return }
        if spelledOutReported, base?.terminalName == "LAAuthenticationRequirement" { return }
        collector.report(
            RuleCatalog.biometryAny, at: member.position,
            "LAAuthenticationRequirement.biometry grants the right to any enrolled finger or face, also one enrolled "
                + "after the right was saved; use .biometryCurrentSet for rights that guard accounts or payments")
    }

    /// KL303 at the flags of SecAccessControlCreateWithFlags, or a wrapper's `authenticationPolicy:`/`flags:`
    /// argument, when they can hold `.biometryAny` on some path: a variable set in branches, a `??` default, a helper
    /// of the file or of the module. A constant already reported where it is written (a typed flags variable's
    /// initializer, an argument) is not reported again.
    private func reportBiometryAnyReaching(
        _ flags: Expr, in function: Int?, _ analysis: SourceAnalysis, into collector: inout FindingCollector
    ) {
        let values = analysis.possibleValues(of: flags, inFunction: function, where: Self.biometryAnyNames.contains)
        let any = values.constants.filter { origin in
            !origin.isCaseMapping
                && (origin.qualifier ?? "SecAccessControlCreateFlags") == "SecAccessControlCreateFlags"
                && !collector.hasFinding(of: RuleCatalog.biometryAny, at: origin)
        }
        guard let first = any.first else { return }
        collector.report(
            RuleCatalog.biometryAny, at: flags.unwrapped.position,
            "\(first.name) can reach these flags: \(values.describe(any, heldBy: flags)); it keeps the item "
                + "usable after someone enrols a new fingerprint or face; use biometryCurrentSet for items "
                + "that guard accounts or payments")
    }

    private func reportBiometryAny(in expr: Expr, into collector: inout FindingCollector) {
        expr.visit { part in
            guard let name = part.terminalName, Self.biometryAnyNames.contains(name) else { return }
            if case .member(let base?, _) = part.kind, base.terminalName != "SecAccessControlCreateFlags" { return }
            collector.report(
                RuleCatalog.biometryAny, at: part.position,
                "\(name) keeps the item usable after someone enrols a new fingerprint or face; use "
                    + "biometryCurrentSet for items that guard accounts or payments")
        }
    }
}

extension Array where Element == Stmt {
    /// Whether a `return` that can run hands an `evaluatePolicy` result to the caller.
    fileprivate var returnsEvaluation: Bool {
        for statement in self {
            if case .returnStatement(let value?) = statement.kind {
                var found = false
                value.visit { if $0.calleeName == "evaluatePolicy" { found = true } }
                if found { return true }
            }
            if statement.liveArms.contains(where: \.returnsEvaluation) { return true }
        }
        return false
    }
}
