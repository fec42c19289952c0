/// A constant that a value was traced back to, and where it is written.
package struct ConstantOrigin: Sendable, Hashable {
    package var name: String
    package var position: SourcePosition
    /// The type the constant is spelled with: `SecAccessControlCreateFlags` in
    /// `SecAccessControlCreateFlags.biometryAny`; nil for an implicit member (`.biometryAny`) or a global.
    package var qualifier: String? = nil
    /// The path of the file the constant is written in when it is another file of the module; nil for the file the
    /// question was asked in.
    package var file: String? = nil
    /// The property, or function without parameters, that gives the constant when the value came through one: the
    /// innermost, whose value or body the constant is written in.
    package var helper: String? = nil
    /// True for an arm of an enum's `switch self` whose case the code does not show: such a table maps every case
    /// and is not a path the code takes.
    package var isCaseMapping = false
}

/// Every value an expression can hold, as far as `ConstantOrigins` follows it.
package struct PossibleValues: Sendable, Equatable {
    /// The constants it holds on some path, or contains (the members of an option set written as a list).
    package var constants: [ConstantOrigin]
    /// True when some path gives something else: a value that is not followed, or a constant the question does not
    /// ask about.
    package var includesOthers: Bool

    package static let unknown = PossibleValues(constants: [], includesOthers: true)

    package static func constant(_ origin: ConstantOrigin) -> PossibleValues {
        PossibleValues(constants: [origin], includesOthers: false)
    }

    /// The constants when they are everything the value can be; nil when it may also be something else.
    package var onlyConstants: [ConstantOrigin]? { includesOthers || constants.isEmpty ? nil : constants }

    /// Whether the value can only be constants, none of them a case's mapping, that all satisfy `holds`.
    package func isAlways(_ holds: (String) -> Bool) -> Bool {
        onlyConstants?.allSatisfy { !$0.isCaseMapping && holds($0.name) } ?? false
    }

    /// The constants, case mappings left out, that satisfy `holds`.
    package func constants(where holds: (String) -> Bool) -> [ConstantOrigin] {
        constants.filter { !$0.isCaseMapping && holds($0.name) }
    }

    /// Whether the value is nothing but constants written within `expr` itself: not one reached through a name, a
    /// helper or a `??`, and not one arm of a conditional that may give something else. A finding there needs no
    /// account of where the value comes from.
    package func isOnlyConstantsWritten(in expr: Expr) -> Bool {
        let written = expr.unwrapped
        let range = written.position.offset..<written.endOffset
        return onlyConstants?.allSatisfy { $0.file == nil && range.contains($0.position.offset) } ?? false
    }

    /// A value that is any one of the alternatives; unknown when there is none.
    package static func anyOf(_ alternatives: [PossibleValues]) -> PossibleValues {
        var result = PossibleValues(constants: [], includesOthers: alternatives.isEmpty)
        for alternative in alternatives {
            result.constants += alternative.constants.filter { !result.constants.contains($0) }
            result.includesOthers = result.includesOthers || alternative.includesOthers
        }
        return result
    }

    /// The same values, with only the constants `isLeaf` accepts; the others count as something else.
    func keeping(_ isLeaf: (String) -> Bool) -> PossibleValues {
        let kept = constants.filter { isLeaf($0.name) }
        return PossibleValues(constants: kept, includesOthers: includesOthers || kept.count < constants.count)
    }

    /// A finding's message for `matching`, the values of `expr` that break a rule for `reason`: `reason` alone when
    /// they are written in `expr` itself, else preceded by where they come from ("kSecMatchLimitOne can be this
    /// delete's limit here: `limit` holds it on one branch (line 4); ...").
    package func message(_ reason: String, for matching: [ConstantOrigin], as role: String, heldBy expr: Expr)
        -> String
    {
        guard let first = matching.first, !isOnlyConstantsWritten(in: expr) else { return reason }
        return "\(first.name) can be \(role) here: \(describe(matching, heldBy: expr)); \(reason)"
    }

    /// How `expr` comes to hold `matching`, some of these constants, for a finding's message:
    /// "`accessibility` holds it on one branch (line 4)", "`accessibility()` holds it (Config.swift line 5 in
    /// `accessibility`)".
    package func describe(_ matching: [ConstantOrigin], heldBy expr: Expr) -> String {
        let sketch = expr.unwrapped.sketch
        let holder = sketch.contains("?") ? "the value written" : "`\(sketch)`"
        var places: [String] = []
        for origin in matching where !places.contains(origin.place) { places.append(origin.place) }
        let listed = Self.list(places)
        guard includesOthers || constants.contains(where: { !matching.contains($0) }) else {
            return "\(holder) holds it (\(listed))"
        }
        return "\(holder) holds it on \(places.count == 1 ? "one branch" : "some branches") (\(listed))"
    }

    /// "a", "a and b", "a, b and c".
    private static func list(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }
}

extension ConstantOrigin {
    /// "line 4", "line 4 in `accessibility`", "Config.swift line 5 in `accessibility`".
    package var place: String {
        var text = "line \(position.line)"
        if let file { text = (file.split(separator: "/").last.map(String.init) ?? file) + " " + text }
        if let helper { text += " in `\(helper)`" }
        return text
    }
}
