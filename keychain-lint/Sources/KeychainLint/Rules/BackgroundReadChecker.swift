/// Notes, for KL505, the keychain items a file adds with a class that needs an unlocked device and the keychain
/// reads made by code the system runs in the background, often while the device is locked.
package struct BackgroundReadChecker: SourceChecker {
    /// Methods the system calls in the background: background fetch, silent pushes, background URL sessions and
    /// notification service extensions.
    private static let entryPoints: Set<String> = [
        "application(_:performFetchWithCompletionHandler:)",
        "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)",
        "application(_:handleEventsForBackgroundURLSession:completionHandler:)",
        "urlSession(_:downloadTask:didFinishDownloadingTo:)",
        "urlSessionDidFinishEvents(forBackgroundURLSession:)",
        "didReceive(_:withContentHandler:)",
    ]
    private static let whenUnlockedClasses: Set<String> = [
        "kSecAttrAccessibleWhenUnlocked", "kSecAttrAccessibleWhenUnlockedThisDeviceOnly",
        "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly",
    ]

    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        for (index, function) in analysis.functions.enumerated() {
            noteWhenUnlockedAdds(function, in: index, analysis, into: &collector)
            if Self.entryPoints.contains(function.decl.signature) {
                noteReads(in: function.decl.body, entry: function.decl.signature, function, analysis, into: &collector)
            }
            // BGTaskScheduler launch handlers.
            function.decl.body.visitLiveExpressions { expr in
                guard case .call(_, let arguments, let closures) = expr.kind, expr.calleeName == "register",
                    arguments.contains(where: { $0.label == "forTaskWithIdentifier" })
                else { return }
                var bodies = closures
                for argument in arguments where argument.label == "launchHandler" {
                    if case .closure(let block) = argument.value.unwrapped.kind { bodies.append(block) }
                }
                for body in bodies {
                    noteReads(in: body, entry: "a BGTaskScheduler launch handler", function, analysis, into: &collector)
                }
            }
        }
    }

    /// An add counts as WhenUnlocked when it has no class, or when every class that reaches it can only be a
    /// WhenUnlocked one: a class chosen on some path as AfterFirstUnlock is a wrapper's option, and the background
    /// read, reported elsewhere, may be of that item.
    private func noteWhenUnlockedAdds(
        _ function: AnalyzedFunction, in index: Int, _ analysis: SourceAnalysis, into collector: inout FindingCollector
    ) {
        for call in function.flow.calls where call.function == .add {
            guard let query = call.query, !query.has(KeychainSymbols.accessControl) else { continue }
            let classes = analysis.reachingValues(
                of: KeychainSymbols.accessible, in: query, inFunction: index,
                where: KeychainSymbols.isAccessibilityClass)
            if classes.isEmpty {
                guard query.isComplete else { continue }
            } else {
                let onlyWhenUnlocked = classes.allSatisfy { _, values in
                    values.isAlways { Self.whenUnlockedClasses.contains($0) }
                }
                guard onlyWhenUnlocked else { continue }
            }
            collector.signals.whenUnlockedAdds.append(
                KeychainItemUse(
                    path: collector.path, position: call.call.position,
                    service: query.fact(for: KeychainSymbols.service)?.value.stringValue,
                    account: query.fact(for: KeychainSymbols.account)?.value.stringValue, entry: ""))
        }
    }

    private func noteReads(
        in body: Block, entry: String, _ function: AnalyzedFunction, _ analysis: SourceAnalysis,
        into collector: inout FindingCollector
    ) {
        body.visitLiveExpressions { expr in
            guard case .call = expr.kind else { return }
            if expr.calleeName == KeychainFunction.copyMatching.rawValue {
                let query = function.flow.calls.first { $0.call.position.offset == expr.position.offset }?.query
                let inline = Self.inlineAttributes(expr, analysis)
                collector.signals.backgroundReads.append(
                    KeychainItemUse(
                        path: collector.path, position: expr.position,
                        service: query?.fact(for: KeychainSymbols.service)?.value.stringValue ?? inline.service,
                        account: query?.fact(for: KeychainSymbols.account)?.value.stringValue ?? inline.account,
                        entry: entry))
            } else if analysis.index.isReadingCall(expr, localFunctions: analysis.localFunctions) {
                collector.signals.backgroundReads.append(
                    KeychainItemUse(
                        path: collector.path, position: expr.position, service: nil, account: nil, entry: entry))
            }
        }
    }

    /// Service and account of a query written as a literal in the call.
    private static func inlineAttributes(
        _ call: Expr, _ analysis: SourceAnalysis
    ) -> (service: String?, account: String?) {
        guard let first = call.callArguments.first, case .dictionary(let entries) = first.value.unwrapped.kind else {
            return (nil, nil)
        }
        func value(_ key: String) -> String? {
            entries.last { analysis.resolver.symbol(of: $0.key) == key }?.value.stringValue
        }
        return (value(KeychainSymbols.service), value(KeychainSymbols.account))
    }
}

/// A keychain add or read, with the item's service and account when they are literals.
package struct KeychainItemUse: Sendable {
    package var path: String
    package var position: SourcePosition
    package var service: String?
    package var account: String?
    /// For reads, the background entry point they run in.
    package var entry: String

    /// Whether both may name the same item: attributes known on both sides must agree.
    func mayBeSameItem(as other: KeychainItemUse) -> Bool {
        if let service, let otherService = other.service, service != otherService { return false }
        if let account, let otherAccount = other.account, account != otherAccount { return false }
        return true
    }
}
