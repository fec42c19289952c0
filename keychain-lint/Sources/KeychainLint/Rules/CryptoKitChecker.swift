/// KL601 to KL604: CryptoKit used against Apple's advice (weak digests deciding security, short keys, Secure
/// Enclave keys made without asking whether there is one, nonces that repeat).
package struct CryptoKitChecker: SourceChecker {
    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        let availabilityWrappers = Self.availabilityWrappers(in: analysis.unit)
        checkStoredKeySizes(analysis.unit, into: &collector)
        for function in analysis.functions {
            let scan = CryptoScan(function.decl.body)
            guard !scan.calls.isEmpty else { continue }
            let values = ConstantBytes(scan: scan, unit: analysis.unit, parameters: function.decl.parameters)
            WeakDigestUse.check(function.decl, scan, into: &collector)
            checkKeySizes(scan, into: &collector)
            checkSecureEnclave(scan, wrappers: availabilityWrappers, into: &collector)
            NonceReuse(scan: scan, values: values, unit: analysis.unit, parameters: Set(function.decl.parameters))
                .check(into: &collector)
        }
    }

    // MARK: KL602

    private static let shortSizes: Set<String> = ["bits128", "bits192"]

    /// A short key is reported where it outlives the function: kept in a property, returned, stored or passed on.
    /// A key made for one seal and dropped protects nothing after the function returns. ChaChaPoly refuses it
    /// outright, so that use is reported wherever it is.
    private func checkKeySizes(_ scan: CryptoScan, into collector: inout FindingCollector) {
        for call in scan.calls where !call.expectsFailure && !call.isInspected {
            guard let bits = Self.shortKeyBits(call.expr) else { continue }
            let position = call.expr.position
            let bound = scan.bindings.first { $0.value.contains { $0.value.unwrapped.position == position } }?.key
            func isKey(_ expr: Expr) -> Bool {
                let expr = expr.unwrapped
                return expr.position == position
                    || (bound != nil && expr.terminalName == bound && expr.calleeName == nil)
            }
            // Uses whose failure a test expects do not count: the key was made to be refused.
            let users = scan.calls.filter { other in
                !other.expectsFailure && other.expr.callArguments.contains { $0.label == "using" && isKey($0.value) }
            }
            let refused = scan.calls.filter(\.expectsFailure).map { $0.expr.position.offset..<$0.expr.endOffset }
            let escapes: Bool
            if let bound {
                let mentions = scan.mentions[bound, default: []].filter { offset in
                    offset > position.offset && !refused.contains { $0.contains(offset) }
                }.count
                escapes = mentions > users.count
            } else {
                escapes = users.isEmpty
            }
            let ciphers = users.compactMap { $0.expr.callReceiver?.dottedName }
            if ciphers.contains(where: { $0.hasSuffix("ChaChaPoly") }) {
                collector.report(
                    RuleCatalog.shortSymmetricKey, at: position,
                    "a \(bits)-bit SymmetricKey is given to ChaChaPoly, which accepts only 256-bit keys: the call "
                        + "throws CryptoKitError.incorrectKeySize; create it with SymmetricKey(size: .bits256)",
                    severity: .medium)
            } else if escapes {
                reportLongLived(bits, at: position, cipher: ciphers.first { $0.hasPrefix("AES.") }, into: &collector)
            }
        }
    }

    /// A short key in a stored property lives as long as its owner.
    private func checkStoredKeySizes(_ unit: SourceUnit, into collector: inout FindingCollector) {
        for property in unit.properties {
            guard let value = property.initializer?.unwrapped, let bits = Self.shortKeyBits(value) else { continue }
            reportLongLived(bits, at: value.position, cipher: nil, into: &collector)
        }
    }

    private func reportLongLived(
        _ bits: Int, at position: SourcePosition, cipher: String?, into collector: inout FindingCollector
    ) {
        if let cipher {
            collector.report(
                RuleCatalog.shortSymmetricKey, at: position,
                "a \(bits)-bit SymmetricKey that outlives this function encrypts data with \(cipher): the advice for "
                    + "keys that protect stored or sent data is 256 bits (SymmetricKey(size: .bits256)), which costs "
                    + "nothing more and keeps a margin against future attacks",
                severity: .medium)
        } else {
            collector.report(
                RuleCatalog.shortSymmetricKey, at: position,
                "a \(bits)-bit SymmetricKey is kept or handed on where the advice is 256 bits: use "
                    + "SymmetricKey(size: .bits256) unless a protocol fixes the size")
        }
    }

    private static func shortKeyBits(_ call: Expr) -> Int? {
        guard call.calleeName == "SymmetricKey", let size = call.callArguments.first, size.label == "size",
            let bits = bitCount(size.value), bits < 256
        else { return nil }
        return bits
    }

    /// `.bits128`, `SymmetricKeySize.bits192`, `SymmetricKeySize(bitCount: 128)`.
    private static func bitCount(_ expr: Expr) -> Int? {
        let expr = expr.unwrapped
        if case .member(_, let name) = expr.kind, shortSizes.contains(name) || name == "bits256" {
            return Int(name.dropFirst(4))
        }
        if expr.calleeName == "SymmetricKeySize", let argument = expr.callArguments.first,
            case .integerLiteral(let value?) = argument.value.unwrapped.kind
        {
            return value
        }
        return nil
    }

    // MARK: KL603

    private func checkSecureEnclave(
        _ scan: CryptoScan, wrappers: Set<String>, into collector: inout FindingCollector
    ) {
        for call in scan.calls where !call.expectsFailure {
            guard call.expr.calleeName == "PrivateKey",
                let dotted = call.expr.callReceiver?.dottedName, dotted.hasPrefix("SecureEnclave."),
                !call.expr.callArguments.contains(where: { $0.label == "dataRepresentation" })
            else { continue }
            let offset = call.expr.position.offset
            let checked =
                scan.isMentioned("SecureEnclave.isAvailable", before: offset)
                || wrappers.contains { scan.isMentioned($0, before: offset) }
            guard !checked else { continue }
            collector.report(
                RuleCatalog.secureEnclaveWithoutAvailabilityCheck, at: call.expr.position,
                "\(dotted).PrivateKey is created without checking SecureEnclave.isAvailable first: on a device or "
                    + "Mac without a Secure Enclave, and in the Simulator, it throws; check it and fall back "
                    + "(a P256 key in the keychain) or explain that the feature is unavailable")
        }
    }

    /// Names of the file's functions and properties that ask `SecureEnclave.isAvailable` for their callers.
    private static func availabilityWrappers(in unit: SourceUnit) -> Set<String> {
        var names: Set<String> = []
        func asks(_ expr: Expr) -> Bool {
            var found = false
            expr.visit { part in
                if case .member(let base?, "isAvailable") = part.kind, base.terminalName == "SecureEnclave" {
                    found = true
                }
            }
            return found
        }
        for property in unit.properties where property.initializer.map(asks) == true { names.insert(property.name) }
        for function in unit.functions where function.name != "<top level>" {
            var found = false
            function.body.visitExpressions { if !found, asks($0) { found = true } }
            if found, function.body.count <= 2 { names.insert(function.name) }
        }
        return names
    }
}
