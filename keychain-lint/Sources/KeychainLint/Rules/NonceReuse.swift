/// KL604: an AES-GCM or ChaChaPoly seal whose nonce repeats under one key: made from constant bytes, held in a
/// stored property, or one local nonce given to several seals or to a seal in a loop.
struct NonceReuse {
    var scan: CryptoScan
    var values: ConstantBytes
    var unit: SourceUnit
    /// The function's parameters, which shadow the file's properties.
    var parameters: Set<String>

    private enum Reuse {
        case constant
        case stored(String)
        case again(String, line: Int)
        case inLoop(String)
    }

    func check(into collector: inout FindingCollector) {
        let seals = scan.calls.filter { Self.cipher(of: $0.expr) != nil && !$0.expectsFailure }
        for seal in seals {
            guard let cipher = Self.cipher(of: seal.expr),
                let nonce = seal.expr.callArguments.first(where: { $0.label == "nonce" })?.value,
                let key = seal.expr.callArguments.first(where: { $0.label == "using" })?.value,
                let reuse = reuse(of: nonce, in: seal, among: seals)
            else { continue }
            let offset = seal.expr.position.offset
            // A key written in the code protects nothing (a known-answer test); a fresh key sealed once is
            // never paired with the nonce again.
            if values.isConstant(key, at: offset) { continue }
            if case .again = reuse {
            } else if case .inLoop = reuse {
            } else if isFreshKeySealedOnce(key, seal, seals) {
                continue
            }
            let what: String
            switch reuse {
            case .constant: what = "a nonce made from constant bytes, so every message sealed with this key gets it"
            case .stored(let name): what = "the nonce stored in `\(name)`, so every call seals with it again"
            case .again(let name, let line): what = "`\(name)` again with the same key (it also seals at line \(line))"
            case .inLoop(let name): what = "`\(name)`, made once outside the loop that seals with it"
            }
            collector.report(
                RuleCatalog.nonceReuse, at: seal.expr.position,
                "\(cipher).seal uses \(what): a repeated nonce under one key reveals the XOR of the plaintexts and "
                    + "lets anyone forge authentication tags; leave out `nonce:` so CryptoKit draws a random one")
        }
    }

    /// "AES.GCM" or "ChaChaPoly" for their `seal` calls.
    private static func cipher(of call: Expr) -> String? {
        guard call.calleeName == "seal", let receiver = call.callReceiver?.dottedName else { return nil }
        if receiver.hasSuffix("GCM") { return "AES.GCM" }
        if receiver.hasSuffix("ChaChaPoly") { return "ChaChaPoly" }
        return nil
    }

    private func reuse(of nonce: Expr, in seal: ScannedCall, among seals: [ScannedCall]) -> Reuse? {
        let offset = seal.expr.position.offset
        let nonce = nonce.unwrapped
        if isConstantNonce(nonce, at: offset) { return .constant }
        let name: String
        switch nonce.kind {
        case .identifier(let identifier): name = identifier
        case .member(let base?, let member) where ["self", "Self"].contains(base.terminalName ?? ""): name = member
        default: return nil
        }
        if case .identifier = nonce.kind, let binding = scan.binding(of: name, before: offset) {
            guard isNonceConstruction(binding.value) else { return nil }
            if isConstantNonce(binding.value.unwrapped, at: offset) { return .constant }
            if seal.loopDepth > binding.loopDepth { return .inLoop(name) }
            let key = Self.keyText(seal.expr)
            let earlier = seals.last { other in
                other.expr.position.offset < offset && other.expr.position.offset > binding.offset
                    && other.path.canRunTogether(with: seal.path) && Self.keyText(other.expr) == key
                    && other.expr.callArguments.contains {
                        $0.label == "nonce" && $0.value.unwrapped.terminalName == name
                    }
            }
            return earlier.map { .again(name, line: $0.expr.position.line) }
        }
        if case .identifier = nonce.kind, parameters.contains(name) { return nil }
        guard let property = unit.properties.first(where: { $0.name == name && $0.isConstant }),
            let initializer = property.initializer, isNonceConstruction(initializer)
        else { return nil }
        return .stored(name)
    }

    private func isNonceConstruction(_ expr: Expr) -> Bool {
        var found = false
        expr.visit { if !found, $0.calleeName == "Nonce" { found = true } }
        return found
    }

    private func isConstantNonce(_ expr: Expr, at offset: Int) -> Bool {
        guard expr.calleeName == "Nonce", let data = expr.callArguments.first(where: { $0.label == "data" }) else {
            return false
        }
        return values.isConstant(data.value, at: offset)
    }

    private static func keyText(_ seal: Expr) -> String {
        seal.callArguments.first { $0.label == "using" }?.value.unwrapped.dottedName ?? "?"
    }

    /// `SymmetricKey(size:)` made in this function and sealed with only here.
    private func isFreshKeySealedOnce(_ key: Expr, _ seal: ScannedCall, _ seals: [ScannedCall]) -> Bool {
        let key = key.unwrapped
        if key.calleeName == "SymmetricKey", key.callArguments.first?.label == "size" { return true }
        guard case .identifier(let name) = key.kind,
            let binding = scan.binding(of: name, before: seal.expr.position.offset),
            binding.value.unwrapped.calleeName == "SymmetricKey",
            binding.value.unwrapped.callArguments.first?.label == "size", binding.loopDepth == seal.loopDepth
        else { return false }
        return seals.filter { Self.keyText($0.expr) == name }.count == 1
    }
}
