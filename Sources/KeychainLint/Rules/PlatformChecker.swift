/// KL501 and KL503 in code; also notes required-reason API use for the project-wide privacy manifest check.
package struct PlatformChecker: SourceChecker {
    /// Names that use an API Apple lists as needing a declared reason, by privacy-manifest category.
    private static let requiredReasonNames: [String: String] = [
        "UserDefaults": "NSPrivacyAccessedAPICategoryUserDefaults",
        "NSUserDefaults": "NSPrivacyAccessedAPICategoryUserDefaults",
        "fileModificationDate": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "creationDateKey": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "contentModificationDateKey": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "NSFileCreationDate": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "NSFileModificationDate": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "systemUptime": "NSPrivacyAccessedAPICategorySystemBootTime",
        "mach_absolute_time": "NSPrivacyAccessedAPICategorySystemBootTime",
        "volumeAvailableCapacityKey": "NSPrivacyAccessedAPICategoryDiskSpace",
        "volumeAvailableCapacityForImportantUsageKey": "NSPrivacyAccessedAPICategoryDiskSpace",
        "systemFreeSize": "NSPrivacyAccessedAPICategoryDiskSpace",
        "NSFileSystemFreeSize": "NSPrivacyAccessedAPICategoryDiskSpace",
        "activeInputModes": "NSPrivacyAccessedAPICategoryActiveKeyboards",
    ]

    package init() {}

    package func check(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        checkFileBasedKeychain(analysis, into: &collector)
        checkCommonCrypto(analysis, into: &collector)
        var seen: Set<String> = []
        func note(_ expr: Expr) {
            guard let name = expr.terminalName, let category = Self.requiredReasonNames[name],
                !seen.contains(category)
            else { return }
            seen.insert(category)
            collector.signals.requiredReasonUses.append((collector.path, expr.position, category))
        }
        for function in analysis.unit.functions
        where !function.compilationConditions.contains(where: { Block.isDevelopmentOnly($0) }) {
            function.body.visitShippingExpressions(note)
        }
        for property in analysis.unit.properties
        where !property.compilationConditions.contains(where: { Block.isDevelopmentOnly($0) }) {
            property.initializer?.visit(note)
        }
        analysis.unit.topLevel.visitShippingExpressions(note)
    }

    private func checkFileBasedKeychain(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        for function in analysis.functions {
            for call in function.flow.calls where call.function == .add {
                guard analysis.isMacOS(function.decl.compilationConditions + call.compilationConditions) else {
                    continue
                }
                guard let query = call.query, query.isComplete, !query.has(KeychainSymbols.dataProtectionKeychain),
                    !(query.fact(for: KeychainSymbols.synchronizable).map {
                        ValueShape.isTrue($0.value, analysis.resolver)
                    } ?? false)
                else { continue }
                collector.report(
                    RuleCatalog.macOSFileKeychain, at: call.call.position,
                    "on macOS this item goes to the file-based keychain, which ignores kSecAttrAccessible and "
                        + "access groups; add kSecUseDataProtectionKeychain: true")
            }
        }
    }

    private func checkCommonCrypto(_ analysis: SourceAnalysis, into collector: inout FindingCollector) {
        if let use = analysis.unit.imports.first(where: { $0.name.hasPrefix("CommonCrypto") }) {
            collector.report(
                RuleCatalog.commonCrypto, at: use.position,
                "CommonCrypto leaves modes, IVs and padding to the caller; CryptoKit offers AES-GCM, SHA-2 and HMAC "
                    + "with safe defaults")
        }
    }
}
