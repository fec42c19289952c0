/// One problem found in one file.
public struct Finding: Sendable, Hashable {
    public var rule: RuleDescriptor
    public var path: String
    public var position: SourcePosition
    public var message: String
    /// The severity after configuration overrides.
    public var severity: Severity
    /// A mechanical edit that fixes the finding, when one is safe.
    public var edit: TextEdit?
    /// The column counted in UTF-16 code units, as SARIF viewers count by default.
    public var utf16Column: Int
    /// Identifies the finding across commits without its line number (see `FindingLocator`).
    public var fingerprint = ""

    public init(rule: RuleDescriptor, path: String, position: SourcePosition, message: String, edit: TextEdit? = nil) {
        self.rule = rule
        self.path = path
        self.position = position
        self.message = message
        self.severity = rule.severity
        self.edit = edit
        self.utf16Column = position.column
    }

    /// Path, line, column, then rule id.
    static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        (lhs.path, lhs.position.line, lhs.position.column, lhs.rule.id)
            < (rhs.path, rhs.position.line, rhs.position.column, rhs.rule.id)
    }
}

/// Replaces the UTF-8 bytes `range` of a file with `replacement`.
public struct TextEdit: Sendable, Hashable {
    public var range: Range<Int>
    public var replacement: String
}

extension Finding {
    /// How to fix this finding: the rule's advice, and what `--fix` does only when this finding has an edit (a class
    /// traced through a variable or a helper, or a wrapper's option, has none).
    public var fixAdvice: String {
        guard edit != nil, let automatic = rule.automaticFix else { return rule.fix }
        return rule.fix + " " + automatic
    }
}
