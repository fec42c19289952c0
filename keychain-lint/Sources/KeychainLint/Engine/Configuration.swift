import Foundation

/// Project settings read from `.keychain-lint.json`.
///
/// ```json
/// { "exclude": ["Pods/**", "**/Generated/*"], "rules": { "KL103": "off", "KL303": "medium" },
///   "failOn": "medium", "fix": ["KL101"] }
/// ```
public struct Configuration: Sendable, Equatable {
    /// Glob patterns of paths to skip, relative to the scanned directory (`**` spans directories).
    public var exclude: [String]
    /// Rules switched off.
    public var disabledRules: Set<String>
    /// Severity overrides by rule id.
    public var severities: [String: Severity]
    /// The least severe finding that makes the command exit with 1.
    public var failOn: Severity
    /// Rules whose mechanical fix `--fix` may apply.
    public var fixableRules: Set<String>
    /// Whether unit and UI test sources are skipped: their fixtures hold fake passwords and deliberately bad items.
    public var excludeTests: Bool

    public static let defaultExcludes = [
        "**/.build/**", "**/Pods/**", "**/Carthage/**", "**/DerivedData/**",
        "**/.git/**", "**/node_modules/**",
    ]

    public init(
        exclude: [String] = Configuration.defaultExcludes, disabledRules: Set<String> = [],
        severities: [String: Severity] = [:], failOn: Severity = .medium, fixableRules: Set<String> = [],
        excludeTests: Bool = true
    ) {
        self.exclude = exclude
        self.disabledRules = disabledRules
        self.severities = severities
        self.failOn = failOn
        self.fixableRules = fixableRules
        self.excludeTests = excludeTests
    }

    public static let fileName = ".keychain-lint.json"

    /// Parses the configuration file's JSON.
    /// - Throws: `ConfigurationError` naming the key that is wrong.
    public static func parse(_ data: Data) throws -> Configuration {
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw ConfigurationError("the configuration must be a JSON object")
        }
        var configuration = Configuration()
        for key in root.keys where !["exclude", "rules", "failOn", "fix", "excludeTests"].contains(key) {
            throw ConfigurationError("unknown key \"\(key)\"")
        }
        if let exclude = root["exclude"] {
            guard let patterns = exclude as? [String] else {
                throw ConfigurationError("\"exclude\" must be a list of globs")
            }
            configuration.exclude += patterns
        }
        if let rules = root["rules"] {
            guard let table = rules as? [String: String] else {
                throw ConfigurationError("\"rules\" maps rule ids to \"off\" or a severity")
            }
            for (name, setting) in table {
                guard let rule = RuleCatalog.rule(named: name) else { throw ConfigurationError("unknown rule \(name)") }
                if setting == "off" {
                    configuration.disabledRules.insert(rule.id)
                } else if let severity = Severity(rawValue: setting) {
                    configuration.severities[rule.id] = severity
                } else {
                    throw ConfigurationError("rule \(name): \"\(setting)\" is not off, high, medium, low or info")
                }
            }
        }
        if let failOn = root["failOn"] {
            guard let name = failOn as? String, let severity = Severity(rawValue: name) else {
                throw ConfigurationError("\"failOn\" must be high, medium, low or info")
            }
            configuration.failOn = severity
        }
        if let excludeTests = root["excludeTests"] {
            guard let flag = excludeTests as? Bool else {
                throw ConfigurationError("\"excludeTests\" must be true or false")
            }
            configuration.excludeTests = flag
        }
        if let fix = root["fix"] {
            guard let names = fix as? [String] else { throw ConfigurationError("\"fix\" must be a list of rule ids") }
            for name in names {
                guard let rule = RuleCatalog.rule(named: name) else { throw ConfigurationError("unknown rule \(name)") }
                configuration.fixableRules.insert(rule.id)
            }
        }
        return configuration
    }

    func isExcluded(_ relativePath: String) -> Bool {
        exclude.contains { GlobPattern($0).matches(relativePath) }
    }
}

public struct ConfigurationError: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
