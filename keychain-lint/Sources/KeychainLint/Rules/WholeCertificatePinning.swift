/// KL609: a certificate's DER bytes (`SecCertificateCopyData`), or a value computed from them such as their hash,
/// compared with another (`==`, `!=`, `isEqual`, `elementsEqual`, `contains`): pinning the whole certificate.
/// Pinning the public key (`SecCertificateCopyKey`, `SecKeyCopyExternalRepresentation`) stays silent.
enum WholeCertificatePinning {
    private static let source = "SecCertificateCopyData"
    private static let comparisons: Set<String> = ["==", "!=", "===", "!=="]
    /// Methods that compare their receiver with their argument.
    private static let equalityMethods: Set<String> = ["isEqual", "isEqualToData", "elementsEqual", "CFEqual"]

    static func check(_ body: Block, into collector: inout FindingCollector) {
        var derived: Set<String> = []
        collectDerived(body, into: &derived)
        body.visitLiveExpressions { expr in
            switch expr.kind {
            case .binary(let op, let lhs, let rhs) where comparisons.contains(op):
                guard isDerived(lhs, derived) || isDerived(rhs, derived) else { return }
                report(at: expr.position, into: &collector)
            case .call:
                guard let method = expr.calleeName else { return }
                let arguments = expr.callArguments.map(\.value)
                if equalityMethods.contains(method),
                    (arguments + [expr.callReceiver].compactMap { $0 }).contains(where: { isDerived($0, derived) })
                {
                    report(at: expr.position, into: &collector)
                } else if method == "contains", arguments.count == 1, isDerived(arguments[0], derived) {
                    report(at: expr.position, into: &collector)
                }
            default: return
            }
        }
    }

    private static func report(at position: SourcePosition, into collector: inout FindingCollector) {
        collector.report(
            RuleCatalog.wholeCertificatePinning, at: position,
            "the pin compares the whole certificate (SecCertificateCopyData), which changes at every renewal even "
                + "when the key stays: the app stops connecting until an update ships; pin the SHA-256 of the "
                + "public key (SecCertificateCopyKey, SecKeyCopyExternalRepresentation) and include a backup key")
    }

    /// Whether `expr` holds a certificate's bytes or a value computed from them.
    private static func isDerived(_ expr: Expr, _ derived: Set<String>) -> Bool {
        var found = false
        expr.visit { part in
            if found { return }
            if part.calleeName == source { found = true }
            if case .identifier(let name) = part.kind, derived.contains(name) { found = true }
        }
        return found
    }

    /// Locals bound, directly or through others, to a certificate's bytes, in the order the code binds them; in
    /// closures too (`certificates.map { ... }`), not in an arm that a literal condition never takes.
    private static func collectDerived(_ body: Block, into derived: inout Set<String>) {
        func bind(_ name: String, _ value: Expr?) {
            if let value, isDerived(value, derived) { derived.insert(name) }
        }
        body.visitLiveStatements { statement in
            switch statement.kind {
            case .variable(let decl): bind(decl.name, decl.initializer)
            case .assignment(let target, "=", let value):
                if case .identifier(let name) = target.unwrapped.kind { bind(name, value) }
            case .ifStatement(let list, _, _), .guardStatement(let list, _):
                for condition in list { if case .binding(let name, let value) = condition { bind(name, value) } }
            default: break
            }
        }
    }
}
