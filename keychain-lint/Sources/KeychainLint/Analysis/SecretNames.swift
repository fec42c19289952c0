/// Judges whether a name or a literal looks like a secret, the way a reviewer would: by the words in it.
package enum SecretNames {
    private static let secretWords: Set<String> = [
        "password", "passwords", "passwd", "passphrase", "secret", "secrets", "token", "tokens", "credential",
        "credentials", "jwt", "bearer", "apikey", "privatekey", "secretkey", "accesskey", "pin", "passcode",
        "passcodes", "cvv", "cvc", "cvv2", "cookie", "cookies",
    ]
    /// Words that make a name describe something about a secret rather than the secret itself.
    private static let disqualifyingWords: Set<String> = [
        "is", "has", "did", "should", "enabled", "enable", "disabled", "count", "expiry", "expires", "expiration",
        "expired", "date", "time", "timestamp", "type", "hash", "hashed", "digest", "encrypted", "length", "status",
        "valid", "required", "present", "exists", "url", "endpoint", "field",
        "label", "placeholder", "title", "message", "prompt", "hint", "error", "policy", "format", "regex", "pattern",
        "mode", "style", "version", "id", "identifier", "show", "visible", "hidden", "forgot", "change",
        "changed", "confirm", "confirmation", "strength", "min", "max", "minimum", "maximum", "request",
        "refreshing", "needs", "will", "lifetime", "ttl", "duration", "interval", "attempts", "retry",
        "view", "button", "cell", "image", "icon", "color", "font", "manager", "provider", "service",
        "handler", "delegate", "controller", "observer", "kind", "option", "options", "description", "path", "file",
        "location", "keychain", "storage", "param", "parameter", "parameters", "query", "attributes", "tag", "tags",
        "ids", "list", "names", "types", "kinds", "counts", "dates", "reported", "registered", "sent",
        // Settings about how the user unlocks: `useBiometryInsteadOfPin`, `pinTimeout`.
        "use", "instead", "prefer", "allow", "biometry", "biometric", "biometrics", "timeout",
    ]
    private static let devicePushWords: Set<String> = [
        "device", "push", "apns", "fcm", "notification", "voip", "firebase",
    ]
    /// Words before a final "key" that make it a key value rather than a dictionary key's name.
    private static let keyQualifiers: Set<String> = [
        "api", "private", "secret", "access", "signing", "encryption", "master", "license", "client", "app", "hmac",
        "aes", "des", "cipher", "crypto", "symmetric", "decryption",
    ]
    /// Words of names that hold key material or a password, whose values may be plain words.
    private static let keyMaterialWords: Set<String> = ["password", "passphrase", "passcode", "pin", "secret"]

    /// Splits `apiKey`, `API_KEY`, `kAuthTokenKey`, `refresh-token` into lower-case words.
    package static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if character.isUppercase, let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                // `apiKey` splits before K; `APISecret` splits before S, the start of a capitalised word.
                let startsWord =
                    previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && next?.isLowercase == true)
                if startsWord {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }
    }

    package enum Verdict {
        case secret
        case notSecret
        case neutral
    }

    /// Whether a variable, key or label name denotes a secret value.
    package static func verdict(forName name: String, dropTrailingKeyWord: Bool = false) -> Verdict {
        var parts = words(name)
        if dropTrailingKeyWord, parts.count > 1, ["key", "keys"].contains(parts.last!) { parts.removeLast() }
        if parts.first == "k", parts.count > 1 { parts.removeFirst() }
        guard !parts.isEmpty else { return .neutral }
        // A session id is the credential of a logged-in session; `idToken` is OpenID's token, not an id.
        if let session = parts.firstIndex(of: "session"), parts[(session + 1)...].first == "id" { return .secret }
        let endsInToken = ["token", "tokens"].contains(parts.last!)
        let disqualifiers = parts.filter { disqualifyingWords.contains($0) && !(endsInToken && $0 == "id") }
        if !disqualifiers.isEmpty { return .notSecret }
        if parts.contains(where: devicePushWords.contains) { return .notSecret }
        if let last = parts.last, ["key", "keys", "name", "names", "tag", "prefix", "suffix"].contains(last) {
            if last.hasPrefix("key"), parts.count > 1, keyQualifiers.contains(parts[parts.count - 2]) { return .secret }
            return parts.contains(where: secretWords.contains) ? .notSecret : .neutral
        }
        return parts.contains(where: secretWords.contains) ? .secret : .neutral
    }

    package static func isSecretName(_ name: String) -> Bool { verdict(forName: name) == .secret }

    /// Whether a literal looks like a real secret rather than a placeholder, an item name, a path or prose.
    /// `name` is the variable or key it is assigned to: a name for key material accepts letters-only values.
    package static func looksLikeSecretValue(_ value: String, name: String? = nil) -> Bool {
        if hasKnownSecretFormat(value) { return true }
        guard value.count >= 8, value.count <= 512 else { return false }
        if value.contains(where: { $0 == " " || $0 == "\n" || $0 == "\t" }) { return false }
        if value.hasPrefix("$(") || value.hasPrefix("${") || value.hasPrefix("%") || value.contains("://") {
            return false
        }
        let lower = value.lowercased()
        let placeholders = [
            "your", "placeholder", "changeme", "xxx", "<", "todo", "example", "dummy", "sample",
            "insert", "replace", "fixme", "fake", "redacted", "***", "...",
        ]
        if placeholders.contains(where: lower.contains) { return false }
        if isEndpointPath(value) || isReverseDNSName(value) || hasPEMMarkerWithoutKey(value) { return false }
        // `lastTokenV2Number = "lastTokenV2Number"`: a literal that spells its own name is a key name.
        if let name, spellsName(value, name) { return false }
        // Names of items and keys are letters and separators only; secrets carry digits or symbols, except
        // passwords and keys that are plain words (`letmeinletmein`).
        let hasDigit = value.contains(where: \.isNumber)
        let hasSymbol = value.contains { !$0.isLetter && !$0.isNumber && !"._-".contains($0) }
        guard hasDigit || hasSymbol || isPlainWordSecret(value, name: name) else { return false }
        // Version strings, dates and numbers are not secrets.
        if value.allSatisfy({ $0.isNumber || ".-:/+".contains($0) }) { return false }
        return true
    }

    /// A letters-only value given to a name for key material, that is not itself an identifier or a secret word.
    private static func isPlainWordSecret(_ value: String, name: String?) -> Bool {
        guard let name, value.allSatisfy(\.isLetter) else { return false }
        let parts = words(name)
        let namesKeyMaterial =
            parts.contains(where: keyMaterialWords.contains)
            || (parts.count > 1 && parts.last == "key" && keyQualifiers.contains(parts[parts.count - 2]))
        guard namesKeyMaterial else { return false }
        // `encryptionKey = "encryptionKey"` or `"userPassword"` is the name of a key, not its value.
        let valueWords = words(value)
        if valueWords.count > 1 || valueWords.contains(where: { secretWords.contains($0) || parts.contains($0) }) {
            return false
        }
        return !secretWords.contains(where: { value.lowercased().contains($0) && $0.count > 3 })
    }

    /// Whether a literal is its identifier, case-insensitively and ignoring separators and a leading `k`:
    /// `"last_token_v2_number"` for `lastTokenV2Number`.
    private static func spellsName(_ value: String, _ name: String) -> Bool {
        let letters = { (text: String) in String(text.lowercased().filter { $0.isLetter || $0.isNumber }) }
        let spelled = letters(value)
        guard !spelled.isEmpty else { return false }
        var nameWords = words(name)
        if nameWords.first == "k", nameWords.count > 1 { nameWords.removeFirst() }
        return spelled == letters(name) || spelled == nameWords.joined()
    }

    /// `/oauth2/token`, `api/v2/refresh-token`: a route, not a credential.
    private static func isEndpointPath(_ value: String) -> Bool {
        guard value.contains("/") else { return false }
        return value.allSatisfy { $0.isLetter || $0.isNumber || "/-_.{}:".contains($0) }
            && value.split(separator: "/").allSatisfy { $0.count <= 40 }
    }

    /// `com.example.app2.secret`: an item, service or group name in reverse-DNS form.
    private static func isReverseDNSName(_ value: String) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let first = parts.first, first.count >= 2, first.count <= 12,
            first.allSatisfy({ $0.isLowercase })
        else { return false }
        // The last part may carry a dash suffix (`com.2fas.NextTokenStateController-TokenEnabled`); each piece
        // between dashes stays word-sized, so a long random suffix is still judged as a value.
        return parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || "-_".contains($0) }
                && part.split(separator: "-").allSatisfy { $0.count <= 32 }
        }
    }

    /// A PEM header or footer alone, such as a constant used to strip them.
    private static func hasPEMMarkerWithoutKey(_ value: String) -> Bool {
        value.contains("-----") && !hasKnownSecretFormat(value)
    }

    /// Formats that are secrets wherever they appear: cloud keys, chat tokens, PEM private keys.
    package static func hasKnownSecretFormat(_ value: String) -> Bool {
        if value.contains("PRIVATE KEY-----") { return hasPEMKeyMaterial(value) }
        let prefixes: [(String, Int)] = [
            ("AKIA", 20), ("sk_live_", 24), ("rk_live_", 24), ("ghp_", 40), ("gho_", 40),
            ("github_pat_", 40), ("xoxb-", 20), ("xoxp-", 20), ("AIza", 39), ("glpat-", 26),
        ]
        for (prefix, minimumLength) in prefixes where value.hasPrefix(prefix) && value.count >= minimumLength {
            return value.dropFirst(prefix.count).allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        }
        return false
    }

    /// Whether a PEM private key block carries key material, not just its BEGIN and END lines.
    private static func hasPEMKeyMaterial(_ value: String) -> Bool {
        var base64 = 0
        for line in value.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) where !line.contains("-----") {
            base64 += line.filter { $0.isLetter || $0.isNumber || "+/=".contains($0) }.count
        }
        // Escaped newlines (`\\n`) in a one-line literal leave the body between the markers.
        if base64 == 0, let begin = value.range(of: "KEY-----"),
            let end = value.range(of: "-----END", range: begin.upperBound..<value.endIndex)
        {
            base64 =
                value[begin.upperBound..<end.lowerBound].filter { $0.isLetter || $0.isNumber || "+/".contains($0) }
                .count
        }
        return base64 >= 40
    }

    /// Keys that are meant to ship inside the app and are restricted by the service: Google API keys, Stripe
    /// publishable keys, RevenueCat public SDK keys, PostHog project keys.
    package static func hasPublishableFormat(_ value: String) -> Bool {
        let prefixes = ["AIza", "pk_live_", "pk_test_", "appl_", "goog_", "amzn_", "phc_"]
        return prefixes.contains { value.hasPrefix($0) && value.count >= $0.count + 16 }
            && value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    }

    /// Analytics, attribution, crash-reporting and in-app-purchase SDKs whose app keys and tokens are public
    /// identifiers, and Google's client configuration.
    private static let publishableSDKWords: Set<String> = [
        "mixpanel", "amplitude", "adjust", "appsflyer", "apps", "branch", "segment", "revenuecat", "purchases",
        "firebase", "google", "maps", "places", "gms", "flurry", "sentry", "bugsnag", "onesignal", "braze",
        "appboy", "heap", "posthog", "instabug", "datadog", "smartlook", "mparticle", "kochava", "singular",
        "airship", "intercom", "analytics", "crashlytics", "appcenter", "countly", "uxcam", "newrelic", "qonversion",
        "adapty", "glassfy", "tenjin", "facebook", "fb",
    ]

    /// Whether a name or a callee (`Mixpanel.initialize`, `appsFlyerDevKey`) belongs to such an SDK.
    package static func namesPublishableSDK(_ text: String) -> Bool {
        words(text).contains(where: publishableSDKWords.contains)
    }

    /// Whether a name is an SDK's key or token (`appsFlyerDevKey`, `mixpanelToken`, `API_KEY` of Firebase).
    package static func isSDKKeyName(_ name: String) -> Bool {
        let parts = words(name)
        return parts.contains(where: publishableSDKWords.contains)
            && ["key", "token", "apikey"].contains(parts.last ?? "")
    }
}
