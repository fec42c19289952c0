/// KL605 to KL609: SecKey and certificate code against Apple's and OWASP's advice (a private key looked up that
/// was never stored, short RSA keys, PKCS#1 v1.5 encryption, SHA-1 signatures, pinning the whole certificate).
package struct KeyChecker: SourceChecker {
    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        let properties = Self.propertyValues(analysis.unit)
        for function in analysis.functions {
            var locals = properties
            locals.merge(function.flow.locals) { $1 }
            for dictionary in function.flow.dictionaries {
                let facts = dictionary.facts.map { (key: $0.key, value: $0.value) }
                checkRSASize(facts, locals: locals, resolver: analysis.resolver, into: &collector)
            }
            WholeCertificatePinning.check(function.decl.body, into: &collector)
        }
        for property in analysis.unit.properties {
            guard case .dictionary(let entries)? = property.initializer?.unwrapped.kind else { continue }
            let facts = entries.map { (key: analysis.resolver.symbol(of: $0.key), value: $0.value) }
            checkRSASize(facts, locals: properties, resolver: analysis.resolver, into: &collector)
        }
        WeakAlgorithmUse(unit: analysis.unit).check(into: &collector)
        EphemeralKeyLookup(analysis: analysis).check(into: &collector)
    }

    /// Initializers of the file's properties, so `static let keySize = 1024` is followed.
    private static func propertyValues(_ unit: SourceUnit) -> [String: Expr] {
        var values: [String: Expr] = [:]
        for property in unit.properties { values[property.name] = property.initializer }
        return values
    }

    // MARK: KL606

    /// The smallest RSA modulus the guidance accepts.
    static let minimumRSABits = 2048

    /// Key-generation parameters with `kSecAttrKeyType: kSecAttrKeyTypeRSA` and a size below 2048 bits.
    private func checkRSASize(
        _ facts: [(key: String?, value: Expr)], locals: [String: Expr], resolver: ConstantResolver,
        into collector: inout FindingCollector
    ) {
        guard let type = facts.last(where: { $0.key == "kSecAttrKeyType" }),
            resolver.symbol(of: type.value, locals: locals) == "kSecAttrKeyTypeRSA",
            let size = facts.last(where: { $0.key == "kSecAttrKeySizeInBits" }),
            let bits = Self.integer(size.value, locals: locals), bits < Self.minimumRSABits
        else { return }
        collector.report(
            RuleCatalog.shortRSAKey, at: size.value.position,
            "an RSA key of \(bits) bits is generated where the minimum is \(Self.minimumRSABits): "
                + (bits <= 1024 ? "keys of this size are within reach of factoring; " : "")
                + "use kSecAttrKeySizeInBits: 2048 or more, or a P-256 key (kSecAttrKeyTypeECSECPrimeRandom)")
    }

    /// An integer literal, through `NSNumber(value:)`, `as CFNumber`, `@1024` and local or file constants.
    static func integer(_ expr: Expr, locals: [String: Expr], depth: Int = 0) -> Int? {
        guard depth < 6 else { return nil }
        let value = expr.unwrapped
        switch value.kind {
        case .integerLiteral(let number): return number
        case .identifier(let name): return locals[name].flatMap { integer($0, locals: locals, depth: depth + 1) }
        case .member(_, let name): return locals[name].flatMap { integer($0, locals: locals, depth: depth + 1) }
        case .forceUnwrap(let inner): return integer(inner, locals: locals, depth: depth + 1)
        case .call(_, let arguments, _):
            guard arguments.count == 1, let callee = value.calleeName,
                ["NSNumber", "Int", "Int32", "UInt", "UInt32", "CFNumber", "numberWithInt"].contains(callee)
            else { return nil }
            return integer(arguments[0].value, locals: locals, depth: depth + 1)
        default: return nil
        }
    }
}
