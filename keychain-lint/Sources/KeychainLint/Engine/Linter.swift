import Foundation

/// A file given to the linter by path and contents.
public struct SourceFile: Sendable {
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// The result of one run.
public struct LintReport: Sendable {
    public var findings: [Finding]
    public var filesScanned: Int
    public var suppressed: Int
    /// Test sources left out: files in test-target folders and files that import a test framework.
    public var skippedTestFiles = 0
    /// Projects analysed apart (see `ProjectRoots`).
    public var projects = 1
    /// Files read but not analysed, such as files nested too deeply to parse safely.
    public var skippedFiles: [SkippedFile] = []

    /// Adds another project's report to this one.
    mutating func merge(_ other: LintReport) {
        findings += other.findings
        filesScanned += other.filesScanned
        suppressed += other.suppressed
        skippedTestFiles += other.skippedTestFiles
        projects += other.projects
        skippedFiles += other.skippedFiles
    }
}

/// Runs every rule over a set of files: parse all files in parallel, index the module, then check each file.
public struct Linter: Sendable {
    public var configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The files under `paths` that the linter reads.
    /// - Throws: `ConfigurationError` when a path does not exist.
    public func discoverFiles(under paths: [String]) throws -> [String] {
        try FileDiscovery(configuration: configuration).files(under: paths)
    }

    /// Lints the files and directories at `paths`, each project among them on its own.
    /// - Throws: `ConfigurationError` when a path does not exist.
    public func lint(paths: [String]) throws -> LintReport {
        let loaded = try load(paths: paths)
        var report = lint(projects: loaded.projects)
        report.skippedTestFiles = loaded.skippedTestFiles
        return report
    }

    /// Reads the files under `paths`, leaves out test sources and groups the rest by project.
    /// - Throws: `ConfigurationError` when a path does not exist.
    public func load(paths: [String]) throws -> (projects: [[SourceFile]], skippedTestFiles: Int) {
        let discovered = try FileDiscovery(configuration: configuration).discover(paths)
        let files = discovered.files
        let loaded = ParallelSlots<SourceFile>.map(files.count) { index in
            SourceFile(path: files[index], text: Self.read(files[index]))
        }.compactMap { $0 }
        var kept: [SourceFile] = []
        var skipped = discovered.skippedTestFiles
        for file in loaded {
            if configuration.excludeTests, !discovered.explicitFiles.contains(file.path),
                TestSources.importsTestFramework(file.text)
            {
                skipped += 1
            } else {
                kept.append(file)
            }
        }
        return (Self.projects(of: kept, given: paths), skipped)
    }

    /// Splits files into the projects `ProjectRoots` finds; files outside any project belong to the path given.
    static func projects(of files: [SourceFile], given paths: [String]) -> [[SourceFile]] {
        var roots = ProjectRoots()
        let byPath = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let groups = roots.group(files.map(\.path)) { file in
            paths.first { file == $0 || file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") } ?? file
        }
        return groups.map { $0.compactMap { byPath[$0] } }
    }

    /// Lints each project on its own and adds up the reports.
    public func lint(projects: [[SourceFile]]) -> LintReport {
        var total = LintReport(findings: [], filesScanned: 0, suppressed: 0, projects: 0)
        for files in projects where !files.isEmpty { total.merge(lint(files: files)) }
        total.findings.sort(by: Finding.reportOrder)
        total.skippedFiles.sort { $0.path < $1.path }
        return total
    }

    /// Lints files already in memory.
    public func lint(files: [SourceFile]) -> LintReport {
        let parsed = ParallelSlots<ParsedFile>.map(files.count) { ParsedFile(files[$0]) }.compactMap { $0 }
        var moduleIndex = ModuleIndex(units: parsed.compactMap(\.unit))
        moduleIndex.isMacOSProject = ModuleIndex.targetsMacOSOnly(
            parsed.compactMap(\.buildSettings).flatMap(\.settings))
        let index = moduleIndex
        let checked = ParallelSlots<FindingCollector>.map(parsed.count) { position in
            Self.check(parsed[position], index: index)
        }.compactMap { $0 }
        var findings = checked.flatMap(\.findings)
        var signals = ProjectSignals()
        for collector in checked { signals.merge(collector.signals) }
        findings += ProjectChecker(files: parsed, signals: signals).findings()
        return finish(findings, parsed: parsed)
    }

    /// Seconds spent parsing and checking each file on its own, slowest first, to find pathological inputs.
    public func profile(files: [SourceFile], top: Int) -> [(path: String, parse: Double, check: Double)] {
        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        let clock = ContinuousClock()
        var parsed: [ParsedFile] = []
        var parseTimes: [Double] = []
        for file in files {
            var result: ParsedFile?
            if ProcessInfo.processInfo.environment["KEYCHAIN_LINT_PROFILE"] == "parser", file.path.hasSuffix(".swift") {
                parseTimes.append(seconds(clock.measure { _ = SwiftFrontend.parseSyntaxOnly(file.text) }))
                result = ParsedFile(file)
            } else {
                parseTimes.append(seconds(clock.measure { result = ParsedFile(file) }))
            }
            parsed.append(result!)
        }
        let index = ModuleIndex(units: parsed.compactMap(\.unit))
        var rows: [(path: String, parse: Double, check: Double)] = []
        for (position, file) in parsed.enumerated() {
            let checkTime = seconds(clock.measure { _ = Self.check(file, index: index) })
            rows.append((file.source.path, parseTimes[position], checkTime))
        }
        return Array(rows.sorted { $0.parse + $0.check > $1.parse + $1.check }.prefix(top))
    }

    private static func check(_ file: ParsedFile, index: ModuleIndex) -> FindingCollector {
        var collector = FindingCollector(path: file.source.path)
        if let unit = file.unit {
            let analysis = SourceAnalysis(unit: unit, index: index)
            for checker in sourceCheckers { checker.check(analysis, into: &collector) }
        }
        if let plist = file.plist, let kind = file.kind {
            PlistChecker().check(plist, kind: kind, into: &collector)
        }
        return collector
    }

    private static let sourceCheckers: [any SourceChecker] = [
        AccessibilityChecker(), ItemOperationChecker(), ReadErrorChecker(), AccessControlChecker(),
        SecretStorageChecker(), StatusHandlingChecker(), PlatformChecker(), BackgroundReadChecker(), CryptoKitChecker(),
        KeyChecker(),
    ]

    /// Applies configuration and suppressions, and sorts.
    private func finish(_ raw: [Finding], parsed: [ParsedFile]) -> LintReport {
        var suppressionsByPath: [String: Suppressions] = [:]
        for file in parsed { suppressionsByPath[file.source.path] = Suppressions(text: file.source.text) }
        var findings: [Finding] = []
        var suppressed = 0
        for var finding in raw where !configuration.disabledRules.contains(finding.rule.id) {
            if suppressionsByPath[finding.path]?.suppresses(finding) == true {
                suppressed += 1
                continue
            }
            finding.severity = configuration.severities[finding.rule.id] ?? finding.severity
            findings.append(finding)
        }
        if !configuration.disabledRules.contains(RuleCatalog.suppressionWithoutReason.id) {
            for (path, suppressions) in suppressionsByPath {
                for position in suppressions.missingReasons {
                    findings.append(
                        Finding(
                            rule: RuleCatalog.suppressionWithoutReason, path: path, position: position,
                            message: "this suppression names no rule or gives no reason, so it suppresses nothing"))
                }
            }
        }
        findings.sort(by: Finding.reportOrder)
        findings = Self.onePerStatement(findings)
        var texts: [String: String] = [:]
        for file in parsed { texts[file.source.path] = file.source.text }
        FindingLocator.complete(&findings, texts: texts)
        let skipped = parsed.compactMap { file in
            file.unit?.skipReason.map { SkippedFile(path: file.source.path, reason: $0) }
        }
        return LintReport(
            findings: findings, filesScanned: parsed.count, suppressed: suppressed, skippedFiles: skipped)
    }

    /// One finding per rule and line, and no low or info note on a line that already has a medium or high
    /// finding: the note would only distract from the real problem.
    static func onePerStatement(_ findings: [Finding]) -> [Finding] {
        struct Line: Hashable {
            var path: String
            var line: Int
        }
        var strongest: [Line: Severity] = [:]
        // A discarded status is about the call's result, not the item: it hides no note about the item.
        for finding in findings where finding.rule.id != RuleCatalog.discardedStatus.id {
            let line = Line(path: finding.path, line: finding.position.line)
            strongest[line] = max(strongest[line] ?? .info, finding.severity)
        }
        var seen: Set<String> = []
        return findings.filter { finding in
            let line = Line(path: finding.path, line: finding.position.line)
            if finding.severity < .medium, let top = strongest[line], top >= .medium { return false }
            return seen.insert("\(finding.path):\(finding.position.line):\(finding.rule.id)").inserted
        }
    }

    static func read(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// One file after parsing.
struct ParsedFile: Sendable {
    var source: SourceFile
    var kind: ScannedFileKind?
    var unit: SourceUnit?
    var plist: PlistNode?
    var buildSettings: BuildSettingsFile?

    init(_ source: SourceFile) {
        self.source = source
        kind = ScannedFileKind(path: source.path)
        switch kind {
        case .swift:
            unit =
                RelevanceFilter.isDisabled || RelevanceFilter.mayMatter(source.text)
                ? SwiftFrontend.parse(path: source.path, source: source.text)
                : SourceUnit(
                    path: source.path, language: .swift, imports: [], functions: [], properties: [], topLevel: [])
        case .objectiveC: unit = ObjectiveCFrontend.parse(path: source.path, source: source.text)
        case .infoPlist, .entitlements, .privacyManifest: plist = XMLPlistParser.parse(source.text)
        case .projectFile: buildSettings = BuildSettingsFile(text: source.text)
        case nil: break
        }
    }
}
