import DaemonSystem
import Foundation
import KeychainCore
import KeychainWire
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The administrator's views of the policy: `security apps list` and `security apps show PATH`.
extension DaemonServer {
    /// What the policy makes of the executable at `path` run by the asker's uid, judged by its path and bytes
    /// alone (rules that also name a unit, a Flatpak app or an AppArmor label need a running process). The daemon
    /// reads the file only as the asker could (``AskersFile``): a digest of a file the asker may not read would
    /// tell them something about it.
    func explainExecutable(at path: String, asker: PeerIdentity, process: ProcessHandle) -> FieldList {
        // A sandbox may deny the asker files its permission bits allow, which the daemon does not judge: a Flatpak
        // app, a snap, or a process in a user namespace of its own is told nothing of files.
        if asker.flatpakAppID != nil || asker.snapName != nil || !asker.sharesDaemonsUserNamespace {
            let reason = "security apps show is not answered to a sandboxed process, whose sandbox may hide files"
            return FieldList([("path", path), ("decision", "refused"), ("reason", reason)])
        }
        // A walk holds a descriptor per directory level (up to ``AskersPath/depthLimit``): only a few at once, so
        // that every connection's walking together cannot take the daemon's descriptors.
        guard AskersPath.walks.begin() else {
            let reason = "keychaind is answering other apps show requests; ask again in a moment"
            return FieldList([("path", path), ("decision", "refused"), ("reason", reason)])
        }
        defer { AskersPath.walks.end() }
        let opened: AskersFile
        switch AskersFile.open(path, uid: asker.uid, asker: process) {
        case .success(let file): opened = file
        case .failure(let refusal):
            return FieldList([("path", path), ("decision", "refused"), ("reason", refusal.reason)])
        }
        defer { SystemCalls.close(opened.descriptor) }
        let real = opened.path
        // Read in a turn of the asker's, shared with the identification of callers: one user's requests cannot keep
        // every processor reading. Nothing is remembered beyond the request.
        let digester = ExecutableDigester(cacheLimit: 1, turns: inspector.digester.turns)
        let read: ExecutableDigester.Digest?
        do {
            read = try digester.digest(ofOpenFile: opened.descriptor, path: real, uid: asker.uid)
        } catch {
            return FieldList([("path", real), ("decision", "refused"), ("reason", error.description)])
        }
        guard let digest = read else {
            return FieldList([("path", real), ("decision", "refused"), ("reason", "the file cannot be read")])
        }
        // The file alone: what it will load is known only when it runs, and checked then.
        let candidate = PeerIdentity(
            uid: asker.uid, gid: asker.gid, pid: 0, executablePath: real, executableSHA256: digest.sha256,
            executableFile: digest.file, codeFiles: [real])
        var fields = FieldList([("exe", real)])
        if let sha256 = digest.sha256 {
            fields.append("sha256", hexadecimal(sha256))
        } else {
            // As for a process running it: no hash rule can name it, a path rule or a private group still may.
            fields.append(
                "sha256",
                "none: the file is over \(ExecutableDigester.largestExecutable >> 20) MiB, more than keychaind reads")
        }
        switch resolver.withLock({ $0 }).resolve(candidate) {
        case .allowed(let identity, let basis):
            fields.append("decision", "allowed")
            fields.append("basis", basis)
            fields.append("application-identifier", identity.applicationIdentifier ?? "")
            fields.append("access-groups", identity.accessGroups.joined(separator: " "))
            if CallerResolver.isPolicyRule(basis: basis) {
                fields.append(
                    "when-it-runs",
                    "the rule applies only if every library it loads is root's and closed to others up to /")
            }
        case .refused(let reason):
            fields.append("decision", "refused")
            fields.append("reason", reason)
        }
        return fields
    }

    /// One `rule` field per policy file that counts, in the order the daemon tries them, then one `problem`
    /// field per file left out.
    func policyListing() -> FieldList {
        let resolver = resolver.withLock { $0 }
        var fields = FieldList([("unknown-callers", resolver.unknownCallers.rawValue)])
        for rule in resolver.policy.rules {
            var selectors: [String] = []
            if let unit = rule.unit { selectors.append("unit=\(unit)") }
            if let flatpak = rule.flatpakAppID { selectors.append("flatpak=\(flatpak)") }
            if let snap = rule.snap { selectors.append("snap=\(snap)") }
            if let label = rule.securityLabel { selectors.append("label=\(label)") }
            if let path = rule.executablePath { selectors.append("exe=\(path)") }
            if let digest = rule.executableSHA256 { selectors.append("sha256=\(hexadecimal(digest))") }
            let identity = rule.identity
            let groups = identity.accessGroups.joined(separator: ",")
            fields.append(
                "rule",
                "\(rule.source): \(selectors.joined(separator: " ")) -> application-identifier="
                    + "\(identity.applicationIdentifier ?? "") access-groups=\(groups)")
        }
        for problem in resolver.policy.problems { fields.append("problem", problem) }
        return fields
    }
}
