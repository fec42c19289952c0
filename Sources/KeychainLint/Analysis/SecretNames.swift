/// Judges whether a name or a literal looks like a secret, the way a reviewer would: by the words in it.
package enum SecretNames {
    private static let secretWords: Set<String> = [
        "password", "passwords", "passwd", "passphrase", "secret", "secrets", "token", "tokens", "credential",
        "credentials", "jwt", "bearer", "apikey", "privatekey", "secretkey", "accesskey",
    ]
    /// Words that make a name describe something about a secret rather than the secret itself.
    private static let disqualifyingWords: Set<String> = [
        "is", "has", "did", "should", "enabled", "enable", "disabled", "count", "expiry", "expires", "expiration",
        "expired", "date", "time", "timestamp", "type", "hash", "hashed", "digest", "encrypted", "length", "status",
        "state", "valid", "required", "saved", "stored", "present", "exists", "url", "endpoint", "header", "field",
        "label", "placeholder", "title", "message", "prompt", "hint", "error", "policy", "format", "regex", "pattern",
        "mode", "style", "version", "id", "identifier", "show", "visible", "hidden", "forgot", "change",
        "changed", "confirm", "confirmation", "strength", "min", "max", "minimum", "maximum", "request", "response",
        "refreshing", "needs", "will", "last", "lifetime", "ttl", "duration", "interval", "attempts", "retry",
        "text", "view", "button", "cell", "image", "icon", "color", "font", "manager", "provider", "store", "service",
        "handler", "delegate", "controller", "observer", "kind", "option", "options", "description", "path", "file",
        "location", "keychain", "storage", "param", "parameter", "parameters", "query", "attributes", "tag", "tags",
        "ids", "list", "names", "types", "kinds", "counts", "dates", "reported", "registered", "sent",
    ]
    private static let devicePushWords: Set<String> = [
        "device", "push", "apns", "fcm", "notification", "voip", "firebase",
    ]
    /// Words before a final "key" that make it a key value rather than a dictionary key's name.
    private static let keyQualifiers: Set<String> = [
        "api", "private", "secret", "access", "signing", "encryption", "master", "license", "client", "app", "hmac",
    ]

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
        if parts.contains(where: disqualifyingWords.contains) { return .notSecret }
        if parts.contains(where: devicePushWords.contains) { return .notSecret }
        if let last = parts.last, ["key", "keys", "name", "names", "tag", "prefix", "suffix"].contains(last) {
            if last.hasPrefix("key"), parts.count > 1, keyQualifiers.contains(parts[parts.count - 2]) { return .secret }
            return parts.contains(where: secretWords.contains) ? .notSecret : .neutral
        }
        return parts.contains(where: secretWords.contains) ? .secret : .neutral
    }

    package static func isSecretName(_ name: String) -> Bool { verdict(forName: name) == .secret }

    /// Whether a literal looks like a real secret rather than a placeholder, an item name or prose.
    package static func looksLikeSecretValue(_ value: String) -> Bool {
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
        // Names of items and keys are letters and separators only; secrets carry digits or symbols.
        let hasDigit = value.contains(where: \.isNumber)
        let hasSymbol = value.contains { !$0.isLetter && !$0.isNumber && !"._-".contains($0) }
        guard hasDigit || hasSymbol else { return false }
        // Version strings, dates and numbers are not secrets.
        if value.allSatisfy({ $0.isNumber || ".-:/+".contains($0) }) { return false }
        return true
    }

    /// Formats that are secrets wherever they appear: cloud keys, chat tokens, PEM private keys.
    package static func hasKnownSecretFormat(_ value: String) -> Bool {
        if value.contains("PRIVATE KEY-----") { return true }
        let prefixes: [(String, Int)] = [
            ("AKIA", 20), ("sk_live_", 24), ("rk_live_", 24), ("ghp_", 40), ("gho_", 40),
            ("github_pat_", 40), ("xoxb-", 20), ("xoxp-", 20), ("AIza", 39), ("glpat-", 26),
        ]
        for (prefix, minimumLength) in prefixes where value.hasPrefix(prefix) && value.count >= minimumLength {
            return value.dropFirst(prefix.count).allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        }
        return false
    }
}
