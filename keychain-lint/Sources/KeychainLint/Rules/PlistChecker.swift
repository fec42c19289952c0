/// KL502 and KL402 in property lists.
package struct PlistChecker {
    package init() {}

    package func check(_ plist: PlistNode, kind: ScannedFileKind, into collector: inout FindingCollector) {
        guard kind == .infoPlist else { return }
        if let transport = plist.entries.last(where: { $0.key == "NSAppTransportSecurity" })?.value,
            let loads = transport.entries.last(where: { $0.key == "NSAllowsArbitraryLoads" }), loads.value.isTrue
        {
            collector.report(
                RuleCatalog.arbitraryLoads, at: loads.keyPosition,
                "NSAllowsArbitraryLoads turns App Transport Security off for every connection")
        }
        checkSecrets(plist, into: &collector)
    }

    private func checkSecrets(_ node: PlistNode, into collector: inout FindingCollector) {
        // Firebase's client configuration identifies the app; its API key is restricted, not hidden.
        let isFirebaseConfiguration = collector.path.hasSuffix("GoogleService-Info.plist")
        for entry in node.entries {
            if let text = entry.value.stringValue,
                SecretNames.hasPublishableFormat(text)
                    || (SecretNames.isSDKKeyName(entry.key) && SecretNames.looksLikeSecretValue(text))
                    || (isFirebaseConfiguration && entry.key == "API_KEY")
            {
                collector.report(
                    RuleCatalog.publishableKey, at: entry.value.position,
                    "\(entry.key) is a client key meant to ship in the app: it is not secret, so restrict it to your "
                        + "bundle id and its APIs in the provider's console rather than hiding it")
            } else if let text = entry.value.stringValue, SecretNames.isSecretName(entry.key),
                SecretNames.looksLikeSecretValue(text, name: entry.key)
            {
                collector.report(
                    RuleCatalog.hardCodedSecret, at: entry.value.position,
                    "\(entry.key) is hard-coded in a property list that ships in the app bundle; inject it at build "
                        + "time with a $(SETTING) reference kept out of the repository, or fetch it at run time")
            }
            checkSecrets(entry.value, into: &collector)
        }
        for element in node.elements { checkSecrets(element, into: &collector) }
    }
}
