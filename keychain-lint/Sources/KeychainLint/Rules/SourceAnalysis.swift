/// A function together with what the flow analysis learnt about it.
package struct AnalyzedFunction {
    package var decl: FunctionDecl
    package var flow: FunctionFlow
}

/// One source file prepared for the rules.
package struct SourceAnalysis {
    package var unit: SourceUnit
    package var index: ModuleIndex
    package var functions: [AnalyzedFunction]
    /// Signatures of the functions this file declares.
    package var localFunctions: Set<String>
    /// Traces values through the file and the module's helpers; made on the first question.
    private let tracer: ValueTracer

    package init(unit: SourceUnit, index: ModuleIndex) {
        self.unit = unit
        self.index = index
        var bodies = unit.functions
        if !unit.topLevel.isEmpty {
            bodies.append(
                FunctionDecl(
                    name: "<top level>", labels: [], parameters: [], body: unit.topLevel, position: .unknown,
                    compilationConditions: []))
        }
        let local = Set(unit.functions.map(\.signature))
        localFunctions = local
        functions = bodies.map {
            AnalyzedFunction(decl: $0, flow: FunctionFlowAnalyzer(index: index, localFunctions: local).analyze($0.body))
        }
        tracer = ValueTracer(unit: unit, moduleValues: index.namedValues)
    }

    package var resolver: ConstantResolver { index.resolver }

    /// Every value `expr` can hold (`ConstantOrigins.possibleValues`), through the file and the module's helpers.
    /// - Parameter function: the index in `functions` of the body `expr` is written in; nil for a property's
    ///   initializer. `functions` lists the file's functions and then its top-level code, as `ConstantOrigins`
    ///   numbers its bodies.
    package func possibleValues(
        of expr: Expr, inFunction function: Int?, where isLeaf: (String) -> Bool
    ) -> PossibleValues {
        tracer.origins.possibleValues(of: expr, in: function, isLeaf: isLeaf)
    }

    /// The values bound to the local `name` that can reach its read at `use`; nil when it is no local of the body.
    package func reachingBindings(ofLocal name: String, inFunction function: Int, readAt use: Int) -> [Expr]? {
        tracer.origins.reachingBindings(ofLocal: name, in: function, readAt: use)
    }

    /// Every value each write of `key` that can reach the call holds (`DictionarySnapshot.reachingFacts`), followed
    /// as `possibleValues` follows one.
    package func reachingValues(
        of key: String, in written: DictionarySnapshot, inFunction function: Int?, where isLeaf: (String) -> Bool
    ) -> [(fact: DictionaryFact, values: PossibleValues)] {
        written.reachingFacts(for: key).map { fact in
            (fact, possibleValues(of: fact.value, inFunction: function, where: isLeaf))
        }
    }

    /// True when the file is built for macOS: the project targets macOS only, it imports AppKit/Cocoa, or the code
    /// sits under `#if os(macOS)`.
    package func isMacOS(_ conditions: [String]) -> Bool {
        if conditions.contains(where: { $0.contains("os(macOS)") || $0.contains("os(OSX)") }) { return true }
        if conditions.contains(where: {
            $0.contains("os(iOS)") || $0.contains("os(watchOS)") || $0.contains("os(tvOS)")
        }) {
            return false
        }
        return index.isMacOSProject || unit.imports.contains { $0.name == "AppKit" || $0.name == "Cocoa" }
    }
}

/// Builds a file's `ConstantOrigins` when a rule first asks, since most files never do.
private final class ValueTracer {
    private let unit: SourceUnit
    private let moduleValues: [String: PossibleValues]
    lazy var origins = ConstantOrigins(unit: unit, moduleValues: moduleValues)

    init(unit: SourceUnit, moduleValues: [String: PossibleValues]) {
        self.unit = unit
        self.moduleValues = moduleValues
    }
}

/// Signals a file gives to checks that need the whole project (Info.plist keys, privacy manifests).
package struct ProjectSignals: Sendable {
    package var biometricUses: [(path: String, position: SourcePosition)] = []
    package var requiredReasonUses: [(path: String, position: SourcePosition, category: String)] = []
    /// Items added with a class that needs an unlocked device (or with no class, which is WhenUnlocked).
    package var whenUnlockedAdds: [KeychainItemUse] = []
    /// Keychain reads made from background entry points.
    package var backgroundReads: [KeychainItemUse] = []

    mutating func merge(_ other: ProjectSignals) {
        biometricUses += other.biometricUses
        requiredReasonUses += other.requiredReasonUses
        whenUnlockedAdds += other.whenUnlockedAdds
        backgroundReads += other.backgroundReads
    }
}

/// Collects the findings of one file.
package struct FindingCollector {
    package let path: String
    package private(set) var findings: [Finding] = []
    package var signals = ProjectSignals()

    package init(path: String) {
        self.path = path
    }

    /// Whether this file already has a finding of `rule` where `origin` is written.
    package func hasFinding(of rule: RuleDescriptor, at origin: ConstantOrigin) -> Bool {
        origin.file == nil && findings.contains { $0.rule == rule && $0.position == origin.position }
    }

    /// Records a finding; `severity` overrides the rule's default for findings whose weight depends on the code.
    package mutating func report(
        _ rule: RuleDescriptor, at position: SourcePosition, _ message: String, edit: TextEdit? = nil,
        severity: Severity? = nil
    ) {
        guard !findings.contains(where: { $0.rule == rule && $0.position == position }) else { return }
        var finding = Finding(rule: rule, path: path, position: position, message: message, edit: edit)
        if let severity { finding.severity = severity }
        findings.append(finding)
    }
}

/// A group of related rules over Swift and Objective-C code.
package protocol SourceChecker: Sendable {
    func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector)
}
