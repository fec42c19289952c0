import Foundation

/// Runs a parsed command and returns the process exit status.
public struct CommandRunner {
    /// Exit statuses, following sysexits(3) for errors.
    public enum ExitStatus: Int32 {
        case clean = 0
        case findings = 1
        case usage = 64
        /// A file could not be analysed (nested too deeply), so its findings are unknown: code that evades the
        /// analyser must not pass a CI gate as clean.
        case filesNotAnalysed = 65
        case noInput = 66
        /// `--output` names a file that cannot be created or written.
        case cannotWriteOutput = 73
        case configuration = 78
    }

    var standardOutput: (String) -> Void
    var standardError: (String) -> Void

    public init(
        standardOutput: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
        standardError: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Parses `arguments` (without the program name) and runs them.
    public func run(arguments: [String]) -> ExitStatus {
        let command: LintCommand
        do {
            command = try LintCommand.parse(arguments)
        } catch {
            standardError("keychain-lint: \(error)\n\n\(LintCommand.usage)\n")
            return .usage
        }
        return run(command)
    }

    public func run(_ command: LintCommand) -> ExitStatus {
        switch command.action {
        case .help:
            standardOutput(LintCommand.usage + "\n")
            return .clean
        case .version:
            standardOutput("keychain-lint \(keychainLintVersion)\n")
            return .clean
        case .listRules:
            for rule in RuleCatalog.all {
                standardOutput(
                    "\(rule.id)  \(rule.severity.rawValue)  CWE-\(rule.cwe)  \(rule.masvs)  \(rule.name): "
                        + rule.summary + "\n"
                )
            }
            return .clean
        case .lint, .benchmark:
            break
        }
        var configuration: Configuration
        do {
            configuration = try loadConfiguration(command.configPath)
        } catch {
            standardError("keychain-lint: configuration: \(error)\n")
            return .configuration
        }
        if case .some(let failOn) = command.failOn, let failOn { configuration.failOn = failOn }
        let linter = Linter(configuration: configuration)
        if case .benchmark(let runs) = command.action {
            return benchmark(linter, paths: command.paths, runs: runs)
        }
        var report: LintReport
        do {
            report = try linter.lint(paths: command.paths)
        } catch {
            standardError("keychain-lint: \(error)\n")
            return .noInput
        }
        if command.fix {
            let rules = command.fixRules.isEmpty ? configuration.fixableRules : command.fixRules
            let result = Fixer(rules: rules).apply(to: report.findings)
            report.findings = result.remaining
            let suggestions = report.findings.count
            standardError(
                "keychain-lint: fixed \(result.fixed) finding\(result.fixed == 1 ? "" : "s") in \(result.files) "
                    + "file\(result.files == 1 ? "" : "s"); \(suggestions) left as suggestions\n")
        }
        let rendered = command.format.render(report)
        if let outputPath = command.outputPath {
            if let reason = ReportFile.write(rendered, to: outputPath) {
                standardError("keychain-lint: cannot write the report to \(outputPath): \(reason)\n")
                return .cannotWriteOutput
            }
        } else {
            standardOutput(rendered)
        }
        // The (empty) report is still written, so a CI step that uploads it finds a file.
        if report.filesScanned == 0 {
            let skipped = report.skippedTestFiles
            standardError(
                "keychain-lint: no file was read: no Swift, Objective-C, property-list or Xcode project file outside "
                    + "tests was found under \(command.paths.joined(separator: " "))"
                    + (skipped > 0 ? " (\(skipped) test file\(skipped == 1 ? "" : "s") skipped)" : "") + "\n")
            return .noInput
        }
        let failing =
            command.failOn == .some(nil)
            ? false : report.findings.contains { $0.severity >= configuration.failOn }
        if failing { return .findings }
        if !report.skippedFiles.isEmpty, !command.allowSkipped {
            let count = report.skippedFiles.count
            standardError(
                "keychain-lint: \(count) file\(count == 1 ? " was" : "s were") not analysed (nested too deeply; "
                    + "listed in the report); --allow-skipped accepts that\n")
            return .filesNotAnalysed
        }
        return .clean
    }

    /// User and system CPU time of this process, all threads included.
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private func loadConfiguration(_ path: String?) throws -> Configuration {
        let candidate = path ?? Configuration.fileName
        guard let data = FileManager.default.contents(atPath: candidate) else {
            if path != nil { throw ConfigurationError("cannot read \(candidate)") }
            return Configuration()
        }
        return try Configuration.parse(data)
    }

    private func benchmark(_ linter: Linter, paths: [String], runs: Int) -> ExitStatus {
        let projects: [[SourceFile]]
        do {
            projects = try linter.load(paths: paths).projects
        } catch {
            standardError("keychain-lint: \(error)\n")
            return .noInput
        }
        let files = projects.flatMap { $0 }
        let swiftFiles = files.filter { $0.path.hasSuffix(".swift") }.count
        let bytes = files.reduce(0) { $0 + $1.text.utf8.count }
        var best = Double.infinity
        var bestCPU = Double.infinity
        var findings = 0
        for _ in 0..<runs {
            let start = ContinuousClock.now
            let cpuStart = Self.processCPUSeconds()
            findings = linter.lint(projects: projects).findings.count
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = min(best, seconds)
            bestCPU = min(bestCPU, Self.processCPUSeconds() - cpuStart)
        }
        let rate = Double(files.count) / best
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if ProcessInfo.processInfo.environment["KEYCHAIN_LINT_PROFILE"] != nil {
            for row in linter.profile(files: files, top: 10) {
                standardOutput(String(format: "%8.3f s parse %8.3f s check  ", row.parse, row.check) + row.path + "\n")
            }
        }
        let perCPUSecond = Double(files.count) / bestCPU
        let idleRate = perCPUSecond * Double(cores)
        standardOutput(
            """
            files: \(files.count) (\(swiftFiles) Swift), \(bytes / 1024) KiB
            cores: \(cores)
            best of \(runs): \(String(format: "%.3f", best)) s, \(String(format: "%.0f", rate)) files/s, \
            \(String(format: "%.1f", Double(bytes) / 1_048_576 / best)) MiB/s
            CPU time: \(String(format: "%.3f", bestCPU)) s (\(String(format: "%.0f", perCPUSecond)) files per \
            CPU-second; \(String(format: "%.0f", idleRate)) files/s if \(cores) cores were idle)
            findings: \(findings)

            """)
        return .clean
    }
}
