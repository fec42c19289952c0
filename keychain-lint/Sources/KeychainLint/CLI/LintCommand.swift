/// A parsed `keychain-lint` command line.
public struct LintCommand: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case lint
        case benchmark(runs: Int)
        case listRules
        case help
        case version
    }

    public var action: Action = .lint
    public var paths: [String] = []
    public var format: ReportFormat = .text
    public var outputPath: String?
    /// nil means the configuration's value; `.some(nil)` is `--fail-on never`.
    public var failOn: Severity??
    public var configPath: String?
    /// Rules named with `--fix`; empty with `fix` set means "the rules the configuration opts into".
    public var fixRules: Set<String> = []
    public var fix = false
    /// `--allow-skipped`: a file too deeply nested to analyse does not fail the run.
    public var allowSkipped = false

    public static let usage = """
        usage: keychain-lint [options] PATH...
          Checks Swift, Objective-C, Info.plist, entitlements, privacy manifests and Xcode project files.

        options:
          --format text|json|sarif   output format (default: text)
          --output FILE              write the report to FILE instead of standard output
          --fail-on SEVERITY         exit 1 when a finding is at least this severe: high, medium, low, info
                                     or never (default: medium, or the configuration's failOn)
          --config FILE              configuration file (default: ./.keychain-lint.json when present)
          --allow-skipped            do not fail the run for files too deeply nested to analyse
          --fix [RULE,...]           apply the safe fixes of these rules (or of the configuration's "fix" list)
          --benchmark [RUNS]         time the analysis of PATH on every core and print files per second
          --list-rules               print every rule with its severity, CWE and MASVS reference
          --version                  print the version
          -h, --help                 print this help

        exit status: 0 no finding reaches --fail-on, 1 one does, 64 usage error, 65 a file could not be analysed
        (and no finding reaches --fail-on), 66 a path is missing or no file was read, 73 --output cannot be
        written, 78 bad configuration file
        """

    /// Parses arguments (without the program name).
    /// - Throws: `UsageError` describing the first bad argument.
    public static func parse(_ arguments: [String]) throws -> LintCommand {
        var command = LintCommand()
        var index = 0
        func value(for option: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--format":
                let name = try value(for: argument)
                guard let format = ReportFormat(rawValue: name) else { throw UsageError("unknown format \(name)") }
                command.format = format
            case "--output", "-o":
                command.outputPath = try value(for: argument)
            case "--fail-on":
                let name = try value(for: argument)
                if name == "never" {
                    command.failOn = .some(nil)
                } else if let severity = Severity(rawValue: name) {
                    command.failOn = .some(severity)
                } else {
                    throw UsageError("unknown severity \(name)")
                }
            case "--config":
                command.configPath = try value(for: argument)
            case "--allow-skipped":
                command.allowSkipped = true
            case "--fix":
                command.fix = true
                if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-"),
                    arguments[index + 1].split(separator: ",").allSatisfy({ RuleCatalog.rule(named: String($0)) != nil }
                    )
                {
                    index += 1
                    for name in arguments[index].split(separator: ",") {
                        if let rule = RuleCatalog.rule(named: String(name)) { command.fixRules.insert(rule.id) }
                    }
                }
            case "--benchmark":
                var runs = 3
                if index + 1 < arguments.count, let count = Int(arguments[index + 1]), count > 0 {
                    runs = count
                    index += 1
                }
                command.action = .benchmark(runs: runs)
            case "--list-rules":
                command.action = .listRules
            case "--version":
                command.action = .version
            case "-h", "--help":
                command.action = .help
            default:
                if argument.hasPrefix("-") && argument != "-" { throw UsageError("unknown option \(argument)") }
                command.paths.append(argument)
            }
            index += 1
        }
        if command.paths.isEmpty, command.action == .lint || command.action.isBenchmark {
            throw UsageError("no PATH given")
        }
        return command
    }
}

extension LintCommand.Action {
    var isBenchmark: Bool {
        if case .benchmark = self { return true }
        return false
    }
}

public struct UsageError: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
