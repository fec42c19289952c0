/// KL607 and KL608: RSA PKCS#1 v1.5 encryption and SHA-1 signatures.
///
/// A SecKey call that encrypts, decrypts, signs or verifies is reported when its algorithm or padding is, or
/// is traced within the file to (`ConstantOrigins`), only weak constants; the message names the lines of those
/// constants. A weak algorithm named elsewhere, whose use the file does not show, is reported where it is
/// written, except `.PKCS1`, which is weak only as an encryption padding.
struct WeakAlgorithmUse {
    var unit: SourceUnit

    /// What a call does with the algorithm it is given as its second argument.
    private enum Operation {
        case encrypt
        case decrypt
        case sign
        case verify

        var isSignature: Bool { self == .sign || self == .verify }
    }

    private struct Sink {
        var operation: Operation
        /// `SecKeyEncrypt` and its kin take a `SecPadding`, where `.PKCS1` is the v1.5 encryption padding.
        var takesPadding: Bool
    }

    private static let sinks: [String: Sink] = [
        "SecKeyCreateEncryptedData": Sink(operation: .encrypt, takesPadding: false),
        "SecKeyCreateDecryptedData": Sink(operation: .decrypt, takesPadding: false),
        "SecKeyCreateSignature": Sink(operation: .sign, takesPadding: false),
        "SecKeyVerifySignature": Sink(operation: .verify, takesPadding: false),
        "SecKeyEncrypt": Sink(operation: .encrypt, takesPadding: true),
        "SecKeyDecrypt": Sink(operation: .decrypt, takesPadding: true),
        "SecKeyRawSign": Sink(operation: .sign, takesPadding: true),
        "SecKeyRawVerify": Sink(operation: .verify, takesPadding: true),
    ]
    /// Calls that only ask whether an algorithm exists: naming one there uses nothing.
    private static let supportQueries: Set<String> = ["SecKeyIsAlgorithmSupported"]

    func check(into collector: inout FindingCollector) {
        var hasSink = false
        // Names only compared with (`==`, a `switch` case) are not used.
        var skipped: Set<Int> = []
        unit.visitAllStatements { statement in
            guard case .switchStatement(_, let cases) = statement.kind else { return }
            for pattern in cases.flatMap(\.patterns) { pattern.visit { skipped.insert($0.position.offset) } }
        }
        unit.visitAllExpressions { expr in
            if case .binary(let op, let lhs, let rhs) = expr.kind, ["==", "!=", "~="].contains(op) {
                skipped.formUnion([lhs.unwrapped.position.offset, rhs.unwrapped.position.offset])
            }
            // Nor is one in the side of `false ? ... : ...` never taken, which values followed leave out too.
            expr.literalConditionSides?.untaken.visit { skipped.insert($0.position.offset) }
            guard let callee = expr.calleeName else { return }
            if Self.sinks[callee] != nil { hasSink = true }
            if Self.supportQueries.contains(callee) {
                for argument in expr.callArguments { skipped.insert(argument.value.unwrapped.position.offset) }
            }
        }
        var reported: Set<Int> = []
        if hasSink { reported = checkCalls(into: &collector) }
        checkNamedAlgorithms(skipping: skipped.union(reported), into: &collector)
    }

    // MARK: Calls

    /// Reports the calls whose algorithm is weak; returns the offsets of the constants they were traced to.
    private func checkCalls(into collector: inout FindingCollector) -> Set<Int> {
        let origins = ConstantOrigins(unit: unit)
        var traced: Set<Int> = []
        for (call, context) in origins.calls {
            guard let callee = call.calleeName, let sink = Self.sinks[callee], call.callArguments.count > 1 else {
                continue
            }
            let argument = call.callArguments[1].value
            let isWeak: (String) -> Bool = { name in
                sink.operation.isSignature
                    ? Self.isSHA1Signature(name) : Self.isPKCS1Encryption(name, padding: sink.takesPadding)
            }
            guard let constants = origins.origins(of: argument, in: context, isLeaf: isWeak) else { continue }
            traced.formUnion(constants.map(\.position.offset))
            let position = argument.unwrapped.position
            let written = constants.count == 1 && constants[0].position == position
            // `padding`, `digestType.padding`; a ternary or a call has no short rendering.
            let sketch = argument.unwrapped.sketch
            let described = sketch.contains("?") ? "the argument" : "`\(sketch)`"
            let source = written ? nil : (described, constants.map(\.position.line))
            report(Self.names(constants), sink.operation, from: source, at: position, into: &collector)
        }
        return traced
    }

    /// `PKCS1SHA1`, or `PKCS1SHA1 or rsaSignatureMessagePKCS1v15SHA1` when several constants reach one call.
    private static func names(_ constants: [ConstantOrigin]) -> String {
        var names: [String] = []
        for constant in constants where !names.contains(constant.name) { names.append(constant.name) }
        return names.joined(separator: " or ")
    }

    // MARK: Names

    /// Weak algorithms named where the file shows no use of them: a table, a property read by another file. A name
    /// in an arm that a literal condition never takes is no use.
    private func checkNamedAlgorithms(skipping skipped: Set<Int>, into collector: inout FindingCollector) {
        unit.visitLiveExpressions { expr, _ in
            guard let name = Self.algorithmName(expr), !skipped.contains(expr.position.offset) else { return }
            if Self.isPKCS1Encryption(name, padding: false) {
                report(name, .encrypt, from: nil, at: expr.position, into: &collector)
            } else if Self.isSHA1Signature(name) {
                report(name, nil, from: nil, at: expr.position, into: &collector)
            }
        }
    }

    /// The name an algorithm or padding constant is written with: `.rsaEncryptionPKCS1`,
    /// `SecKeyAlgorithm.rsaEncryptionPKCS1`, `kSecKeyAlgorithmRSAEncryptionPKCS1`, `kSecPaddingPKCS1SHA1`.
    private static func algorithmName(_ expr: Expr) -> String? {
        switch expr.kind {
        case .identifier(let name): name
        case .member(_, let name): name
        default: nil
        }
    }

    /// The PKCS#1 v1.5 encryption algorithm; with `padding`, also the `SecPadding` of that name, which in a
    /// signing call means PKCS#1 v1.5 signature padding instead.
    private static func isPKCS1Encryption(_ name: String, padding: Bool) -> Bool {
        name == "rsaEncryptionPKCS1" || name == "kSecKeyAlgorithmRSAEncryptionPKCS1"
            || (padding && (name == "PKCS1" || name == "kSecPaddingPKCS1"))
    }

    private static func isSHA1Signature(_ name: String) -> Bool {
        (name.hasSuffix("SHA1") && name.lowercased().contains("signature"))
            || name == "PKCS1SHA1" || name == "kSecPaddingPKCS1SHA1"
    }

    // MARK: Messages

    /// - Parameters:
    ///   - operation: what the call does; nil for a signature algorithm whose use the file does not show.
    ///   - source: how the argument the constant was traced through reads, and the lines the constants are
    ///     written on.
    private func report(
        _ name: String, _ operation: Operation?, from source: (argument: String, lines: [Int])?,
        at position: SourcePosition, into collector: inout FindingCollector
    ) {
        var subject = name
        if let source { subject += " (the value of \(source.argument), from \(Self.lines(source.lines)))" }
        if operation?.isSignature == false {
            collector.report(
                RuleCatalog.rsaPKCS1Encryption, at: position,
                "\(subject) pads RSA encryption with PKCS#1 v1.5, which a padding oracle can undo without the key: "
                    + "use .rsaEncryptionOAEPSHA256 (or ECIES with an EC key)")
        } else {
            let verb =
                switch operation {
                case .sign: "signs"
                case .verify: "verifies"
                default: "signs or verifies"
                }
            collector.report(
                RuleCatalog.sha1Signature, at: position,
                "\(subject) \(verb) a SHA-1 digest, and SHA-1 collisions can be computed: a signature over one "
                    + "message can be made to hold for another; use the SHA256 variant of the algorithm")
        }
    }

    /// "line 3", "lines 3 and 7", "lines 3, 7 and 9".
    private static func lines(_ lines: [Int]) -> String {
        let sorted = Array(Set(lines)).sorted().map(String.init)
        guard let last = sorted.last else { return "" }
        if sorted.count == 1 { return "line " + last }
        return "lines " + sorted.dropLast().joined(separator: ", ") + " and " + last
    }
}
