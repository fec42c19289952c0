/// One key written into a query or attribute dictionary.
package struct DictionaryFact: Sendable {
    /// The constant the key resolves to (`kSecAttrAccessible`), or nil when it is not a known constant.
    package var key: String?
    package var keyExpr: Expr
    package var value: Expr
    package var path: BranchPath
}

/// A dictionary the flow analysis follows through a function: a literal, a local variable, or a copy.
package final class TrackedDictionary {
    package var facts: [DictionaryFact]
    /// False when something not followed (a call's result, `merge`) may have added keys.
    package var isComplete: Bool
    package var variable: String?
    /// Variables this one was copied from, so `var add = query` is known to describe the same item.
    package var ancestors: [String]
    /// How the dictionary is used: the SecItem functions it reaches, and whether it escapes elsewhere.
    package var uses: [DictionaryRole] = []
    package var escapes = false

    init(facts: [DictionaryFact], isComplete: Bool, variable: String?, ancestors: [String] = []) {
        self.facts = facts
        self.isComplete = isComplete
        self.variable = variable
        self.ancestors = ancestors
    }

    /// True when the only uses are reads: copy, delete, or the query half of an update.
    package var onlyReadOnlyUses: Bool {
        !escapes && !uses.isEmpty && uses.allSatisfy { $0 == .search }
    }

    /// Everything written into the dictionary, as it stands at the end of the function's top level.
    package var finalSnapshot: DictionarySnapshot {
        DictionarySnapshot(facts: facts, isComplete: isComplete, variable: variable, ancestors: ancestors)
    }
}

/// What a SecItem call does with a dictionary it is given.
package enum DictionaryRole: Sendable {
    /// SecItemAdd's attributes, or SecItemUpdate's attributes to update.
    case write
    /// A search: SecItemCopyMatching, SecItemDelete, or SecItemUpdate's query.
    case search
}

/// The facts of a dictionary that can hold at one call site.
package struct DictionarySnapshot: Sendable {
    package var facts: [DictionaryFact]
    package var isComplete: Bool
    package var variable: String?
    package var ancestors: [String]
    /// Where the dictionary is read: the branch path of the call that gets it.
    package var readPath = BranchPath()

    package func fact(for key: String) -> DictionaryFact? { facts.last { $0.key == key } }

    /// The writes of `key` whose value can be in the dictionary where it is read: each one not replaced since on
    /// every path, that is by a later write of the key that runs whenever the read does or whenever that write does.
    /// A value written in one arm of an `if` and another written before it both reach a read after the `if`; a value
    /// written and then written again in the same arm does not.
    package func reachingFacts(for key: String) -> [DictionaryFact] {
        let written = facts.filter { $0.key == key }
        return written.enumerated().compactMap { index, fact in
            let replaced = written[(index + 1)...].contains { later in
                later.path.isPrefix(of: readPath) || later.path.isPrefix(of: fact.path)
            }
            return replaced ? nil : fact
        }
    }

    package func has(_ key: String) -> Bool { fact(for: key) != nil }

    package func facts(where predicate: (String) -> Bool) -> [DictionaryFact] {
        facts.filter { $0.key.map(predicate) ?? false }
    }

    /// Whether two snapshots describe the same item: one variable, a copy, or equal account and service.
    package func describesSameItem(as other: DictionarySnapshot) -> Bool {
        let mine = Set([variable].compactMap { $0 } + ancestors)
        let theirs = Set([other.variable].compactMap { $0 } + other.ancestors)
        if !mine.isDisjoint(with: theirs) { return true }
        var compared = false
        for key in [KeychainSymbols.account, KeychainSymbols.service, KeychainSymbols.server] {
            guard let left = fact(for: key), let right = other.fact(for: key) else { continue }
            if left.value.sketch != right.value.sketch { return false }
            compared = true
        }
        return compared || !isComplete || !other.isComplete
    }
}

extension Expr {
    /// A canonical rendering used to compare two expressions for equality of meaning.
    package var sketch: String {
        switch unwrapped.kind {
        case .identifier(let name): return name
        case .member(let base, let name): return (base?.sketch ?? "") + "." + name
        case .stringLiteral(let text, _): return "\"" + text + "\""
        case .integerLiteral(let value): return value.map(String.init) ?? "?"
        case .booleanLiteral(let value): return String(value)
        case .call(let callee, let arguments, _):
            return callee.sketch + "("
                + arguments.map { ($0.label ?? "") + ":" + $0.value.sketch }.joined(separator: ",") + ")"
        default: return "?"
        }
    }
}
