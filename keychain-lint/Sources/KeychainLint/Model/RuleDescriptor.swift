/// What a rule checks and why, as shown in reports and SARIF rule metadata.
public struct RuleDescriptor: Sendable, Hashable {
    /// Stable identifier such as `KL101`; never reused for another check.
    public var id: String
    /// A short camel-case name such as `accessibleAlways`; suppressions accept it as well as the id.
    public var name: String
    public var severity: Severity
    public var cwe: Int
    /// OWASP MASVS control and MASTG test or weakness ids.
    public var masvs: String
    public var summary: String
    /// Why the code fails or leaks on a real device.
    public var explanation: String
    /// How to fix a finding by hand.
    public var fix: String
    /// What `--fix` does to a finding that carries an edit ("`--fix KL101` rewrites this constant."); nil for rules
    /// without mechanical fixes. Reports add it only to findings that have one.
    public var automaticFix: String? = nil
    /// Which findings of the rule get an edit, for the rule's own description (SARIF's `help`); nil when none do.
    public var automaticFixScope: String? = nil

    public static func == (lhs: RuleDescriptor, rhs: RuleDescriptor) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension RuleDescriptor {
    /// The rule's fix as its description gives it: the advice, and which findings `--fix` rewrites.
    public var fixDescription: String { automaticFixScope.map { fix + " " + $0 } ?? fix }
}
