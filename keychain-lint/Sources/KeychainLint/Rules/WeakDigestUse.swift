/// KL601: MD5 or SHA-1 (CryptoKit's `Insecure` digests, CommonCrypto's `CC_MD5`/`CC_SHA1`) whose result decides
/// something about security. Cache keys, ETags, content addresses and checksums against accidental damage are
/// what these digests are still fine for, and stay silent.
enum WeakDigestUse {
    /// Words that make a digest a security decision: what it hashes, where it goes, what the function does.
    private static let securityWords: Set<String> = [
        "password", "passwords", "passwd", "passphrase", "passcode", "pin", "secret", "token", "credential",
        "credentials", "signature", "sign", "signed", "signing", "mac", "auth", "authenticate", "authentication",
        "authenticated", "authorize", "authorization", "verify", "verified", "verification", "login", "session",
        "otp", "salt", "salted", "nonce", "challenge", "license", "receipt", "tamper", "integrity", "symmetric",
        "apikey", "privatekey", "secretkey", "hmac", "jwt", "bearer", "pinning", "pinned",
    ]
    /// Secrets whose digest is always a finding: a fast hash of a password is recovered offline.
    private static let secretInputWords: Set<String> = [
        "password", "passwords", "passwd", "passphrase", "passcode", "pin", "secret", "credential", "credentials",
    ]
    /// Uses that need no collision or preimage resistance.
    private static let harmlessWords: Set<String> = [
        "cache", "cached", "caches", "etag", "etags", "checksum", "checksums", "filename", "identifier", "dedup",
        "deduplicate", "deduplication", "gravatar", "avatar", "thumbnail", "image", "content", "address",
        "addressed", "bucket", "shard", "partition", "legacy", "display", "analytics", "log",
    ]

    static func check(_ function: FunctionDecl, _ scan: CryptoScan, into collector: inout FindingCollector) {
        for call in scan.calls {
            guard let algorithm = weakAlgorithm(of: call.expr) else { continue }
            // Where the digest goes: the local it is bound to, and the expressions that use that local.
            let bound = scan.bindings.first { $0.value.contains { Self.contains($0.value, call.expr) } }?.key
            var inputWords: Set<String> = []
            for argument in call.expr.callArguments { words(in: argument.value, into: &inputWords) }
            // Parameter names say nothing unless the digest hashes them, which `inputWords` already covers.
            var nameWords = Set(SecretNames.words(function.name))
            var flowWords: Set<String> = []
            if let bound {
                nameWords.formUnion(SecretNames.words(bound))
                let users = scan.calls.filter { $0.expr.callArguments.contains { refers($0.value, to: bound) } }
                for other in users {
                    flowWords.formUnion(SecretNames.words(other.expr.calleeName ?? ""))
                    for argument in other.expr.callArguments {
                        flowWords.formUnion(SecretNames.words(argument.label ?? ""))
                    }
                }
                for (name, values) in scan.bindings
                where values.contains(where: { $0.isLive && refers($0.value, to: bound) }) {
                    flowWords.formUnion(SecretNames.words(name))
                }
            }
            function.body.visitLiveExpressions { expr in
                guard case .binary(let op, let lhs, let rhs) = expr.kind, ["==", "!=", "==="].contains(op) else {
                    return
                }
                let involved = [lhs, rhs].contains { side in
                    Self.contains(side, call.expr) || bound.map { refers(side, to: $0) } == true
                }
                if involved {
                    words(in: lhs, into: &flowWords)
                    words(in: rhs, into: &flowWords)
                }
            }
            var evidence = nameWords.union(flowWords).union(inputWords)
            // A device's push token identifies it and protects nothing.
            if !evidence.isDisjoint(with: ["device", "push", "apns", "fcm"]) { evidence.remove("token") }
            let secretInput = inputWords.first { secretInputWords.contains($0) }
            let harmless = !nameWords.isDisjoint(with: harmlessWords)
            let reason =
                secretInput.map { "it hashes a \($0)" }
                ?? (harmless
                    ? nil
                    : (evidence.sorted().first { securityWords.contains($0) }).map {
                        "its result is used for \($0 == "sign" ? "a signature" : $0)"
                    })
            guard let reason else { continue }
            collector.report(
                RuleCatalog.weakDigestForSecurity, at: call.expr.position,
                "\(algorithm) decides something about security here (\(reason)): collisions for both are cheap "
                    + "and both are fast enough to search for a password offline; use SHA256 (or HMAC<SHA256> for "
                    + "a MAC, a password key derivation function for a password); MD5 and SHA-1 remain fine for "
                    + "cache keys and checksums")
        }
    }

    /// "Insecure.MD5" for `Insecure.MD5.hash(data:)`, `Insecure.SHA1()`, `CC_MD5(...)`.
    private static func weakAlgorithm(of call: Expr) -> String? {
        if let name = call.calleeName, name.hasPrefix("CC_MD5") || name.hasPrefix("CC_SHA1"),
            !name.hasSuffix("_DIGEST_LENGTH"), !name.hasSuffix("Final"), !name.hasSuffix("Update")
        {
            return name.hasPrefix("CC_MD5") ? "CC_MD5 (MD5)" : "CC_SHA1 (SHA-1)"
        }
        guard case .call(let callee, _, _) = call.kind, let dotted = callee.unwrapped.dottedName else { return nil }
        for algorithm in ["Insecure.MD5", "Insecure.SHA1"] where dotted == algorithm || dotted == algorithm + ".hash" {
            return algorithm
        }
        return nil
    }

    private static func words(in expr: Expr, into result: inout Set<String>) {
        expr.visit { part in
            if let name = part.terminalName { result.formUnion(SecretNames.words(name)) }
        }
    }

    private static func refers(_ expr: Expr, to name: String) -> Bool {
        var found = false
        expr.visit { if !found, $0.terminalName == name { found = true } }
        return found
    }

    private static func contains(_ expr: Expr, _ target: Expr) -> Bool {
        var found = false
        expr.visit { if !found, $0.position == target.position, $0.endOffset == target.endOffset { found = true } }
        return found
    }
}
