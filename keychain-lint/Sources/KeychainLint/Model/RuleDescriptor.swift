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
    public var fix: String

    public static func == (lhs: RuleDescriptor, rhs: RuleDescriptor) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
