/// KL305 and KL504: checks that need the sources and the project's property lists together.
struct ProjectChecker {
    var files: [ParsedFile]
    var signals: ProjectSignals

    func findings() -> [Finding] {
        backgroundReadFindings() + appTargetFindings()
    }

    /// KL505: a background entry point reads an item that only an unlocked device can read.
    private func backgroundReadFindings() -> [Finding] {
        signals.backgroundReads.compactMap { read in
            guard let add = signals.whenUnlockedAdds.first(where: { $0.mayBeSameItem(as: read) }) else { return nil }
            let file = add.path.split(separator: "/").last.map(String.init) ?? add.path
            return Finding(
                rule: RuleCatalog.backgroundReadOfWhenUnlockedItem, path: read.path, position: read.position,
                message: "this keychain read runs in \(read.entry), which the system starts while the device may be "
                    + "locked, but the item is added as WhenUnlocked (\(file):\(add.position.line)): the read fails "
                    + "with errSecInteractionNotAllowed (-25308); add it with kSecAttrAccessibleAfterFirstUnlock")
        }
    }

    private func appTargetFindings() -> [Finding] {
        let infoPlists = files.filter { $0.kind == .infoPlist }.compactMap(\.plist)
        let settings = files.compactMap(\.buildSettings).flatMap(\.settings)
        // Without an Info.plist or project file in the scan there is no app target to judge.
        guard !infoPlists.isEmpty || files.contains(where: { $0.kind == .projectFile }) else { return [] }
        var findings: [Finding] = []
        let declaresFaceID =
            infoPlists.contains { $0["NSFaceIDUsageDescription"] != nil }
            || settings.contains { $0.name == "INFOPLIST_KEY_NSFaceIDUsageDescription" && !$0.value.isEmpty }
        if !declaresFaceID {
            for use in signals.biometricUses {
                findings.append(
                    Finding(
                        rule: RuleCatalog.missingFaceIDUsage, path: use.path, position: use.position,
                        message: "biometrics are used but no Info.plist or build setting declares "
                            + "NSFaceIDUsageDescription; Face ID devices terminate the app on first use"))
            }
        }
        // Privacy manifests and their required reasons are an iOS-family requirement.
        if ModuleIndex.targetsMacOSOnly(settings) { return findings }
        let manifests = files.filter { $0.kind == .privacyManifest }.compactMap(\.plist)
        let declared = Set(
            manifests.flatMap { manifest in
                (manifest["NSPrivacyAccessedAPITypes"]?.elements ?? []).compactMap {
                    $0["NSPrivacyAccessedAPIType"]?.stringValue
                }
            })
        var reported: Set<String> = []
        for use in signals.requiredReasonUses where !declared.contains(use.category) && !reported.contains(use.category)
        {
            reported.insert(use.category)
            let message =
                manifests.isEmpty
                ? "this uses a required-reason API (\(use.category)) and the project has no PrivacyInfo.xcprivacy"
                : "this uses a required-reason API (\(use.category)) that no PrivacyInfo.xcprivacy declares"
            findings.append(
                Finding(
                    rule: RuleCatalog.missingPrivacyManifest, path: use.path, position: use.position, message: message))
        }
        return findings
    }
}
