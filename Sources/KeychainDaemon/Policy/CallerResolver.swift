internal import CryptoKitOpenSSL
import KeychainCore

#if canImport(Glibc)
    import Glibc
#endif

/// Turns a peer's kernel identity into the ``CallerIdentity`` the engine checks access groups against.
package struct CallerResolver: Sendable {
    /// What happens to a caller no rule names.
    package enum UnknownCallers: String, Sendable, CaseIterable {
        /// One private group of its own, derived from its uid and executable path.
        case privateGroup = "private"
        /// Refused.
        case refuse
    }

    /// The outcome for one peer.
    package enum Decision: Sendable, Equatable {
        /// The caller is `identity`; `basis` says why (a policy file, or the private-group rule).
        case allowed(CallerIdentity, basis: String)
        /// The caller is refused, for `reason`.
        case refused(String)
    }

    /// Whether an allowed caller's `basis` is a rule of the administrator's policy, which names it as an app, rather
    /// than the private-group rule for callers the policy does not know.
    package static func isPolicyRule(basis: String) -> Bool { !basis.hasPrefix("private group") }

    package let policy: PolicyDirectory
    package let unknownCallers: UnknownCallers
    /// The uid that must own an executable and its directories for a path-only rule to trust the path.
    package let trustedOwner: UInt32
    /// Where a private group's path is looked up, and `security apps show`'s.
    package let hostView: HostView

    package init(
        policy: PolicyDirectory, unknownCallers: UnknownCallers = .privateGroup, trustedOwner: UInt32 = 0,
        hostView: HostView = HostView()
    ) {
        self.policy = policy
        self.unknownCallers = unknownCallers
        self.trustedOwner = trustedOwner
        self.hostView = hostView
    }

    package func resolve(_ peer: PeerIdentity) -> Decision {
        if !peer.loaderVariables.isEmpty {
            return .refused(
                "its environment sets \(peer.loaderVariables.joined(separator: ", ")), which can load code into it")
        }
        var notApplied: [String] = []
        for rule in policy.rules where rule.matchesSelectors(of: peer) {
            // In a user namespace of its own a process mounts what it likes: an executable names no program there.
            if rule.namesExecutable, !peer.sharesDaemonsUserNamespace { continue }
            // A path without a hash vouches for the program only where no one but the owner can change it.
            if let path = rule.executablePath, rule.executableSHA256 == nil,
                untrustedPath(path, runningFile: peer.executableFile) != nil
            {
                continue
            }
            // Nor does either vouch for code the program loaded from where someone else could have put it (a
            // library beside a program built with `$ORIGIN` in its search path, a plugin).
            if rule.namesExecutable, let reason = untrustedCode(of: peer) {
                notApplied.append("\(rule.source) is not applied: \(reason)")
                continue
            }
            return .allowed(rule.identity, basis: rule.source)
        }
        let note = notApplied.isEmpty ? "" : " (\(notApplied.joined(separator: "; ")))"
        switch unknownCallers {
        case .refuse:
            return .refused("no policy rule names it\(note)")
        case .privateGroup:
            guard let path = peer.executablePath, !path.hasSuffix(" (deleted)") else {
                return .refused("its executable is unknown, so it has no private group")
            }
            guard peer.sharesDaemonsUserNamespace else {
                return .refused(
                    "it runs in a user namespace of its own, where a path can name any program, so it has no "
                        + "private group")
            }
            // The path as the process's mounts show it: the group is the program's only if the host's view (not
            // the process's own, which a setuid sandbox can make) has the same file there.
            guard let running = peer.executableFile, hostView.fileIdentity(at: path) == running else {
                return .refused(
                    "its executable's path \(path) names another file for keychaind (or none), so it has no "
                        + "private group")
            }
            // The group is named by uid and path alone: a program its user cannot replace keeps it only while no
            // code of the user's runs in it (a preloaded library that erased `LD_PRELOAD` from the environment).
            if !userCanReplace(path, uid: peer.uid), let reason = untrustedCode(of: peer) {
                return .refused(
                    "it runs code from a file its user could have put: \(reason), so it has no private group")
            }
            let group = Self.privateGroup(uid: peer.uid, executablePath: path)
            return .allowed(
                CallerIdentity(applicationIdentifier: group, accessGroups: [group]), basis: "private group\(note)")
        }
    }

    /// `LOCAL.<name>.<16 hex digits>`: the executable's name for people, and a digest of the uid and the whole
    /// path, so that two programs of one name in different places, or of different users, never share a group.
    package static func privateGroup(uid: UInt32, executablePath: String) -> String {
        var state = SHA256State()
        let input = Array("keychaind private group\0\(uid)\0\(executablePath)".utf8)
        input.withUnsafeBytes { state.update($0) }
        let digest = state.finalizedBytes()
        let name = executablePath.split(separator: "/").last.map(String.init) ?? "program"
        return "LOCAL.\(name).\(hexadecimal(Array(digest.prefix(8))))"
    }

    /// Why `path` cannot vouch for a program, or nil: the running file must be the file at the path, and the
    /// file and every directory above it must belong to the trusted owner and be writable by no one else.
    package func untrustedPath(_ path: String, runningFile: FileIdentity?) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return "\(path) is not a regular file"
        }
        guard let runningFile,
            runningFile == FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        else { return "the process does not run the file at \(path)" }
        return unclosed(path, owners: [trustedOwner])
    }

    /// Why a file the process runs code from (other than its executable, which the rule itself vouches for)
    /// could have been put there by someone but root and the trusted owner, or nil. A file deleted since it
    /// was mapped is judged by its directory, where only they could have put it. A memory file (`memfd`) is
    /// anyone's: one inherited across `execve` and named in `LD_PRELOAD` as `/proc/self/fd/N` is mapped by the
    /// loader, and the library can erase the variable before the daemon reads the environment.
    package func untrustedCode(of peer: PeerIdentity) -> String? {
        guard let files = peer.codeFiles else { return "its memory map cannot be read" }
        let owners: Set<UInt32> = [0, trustedOwner]
        var closed = Set<String>()
        for file in files where file != peer.executablePath {
            if file.hasPrefix("/memfd:") {
                return "it runs code from \(file), a memory file any process of its user could have filled"
            }
            let deletedSuffix = " (deleted)"
            let reason =
                file.hasSuffix(deletedSuffix)
                ? unclosed(String(file.dropLast(deletedSuffix.count)), owners: owners, from: .parent, known: &closed)
                : unclosed(file, owners: owners, from: .file, known: &closed)
            if let reason { return "it loaded \(file), and \(reason)" }
        }
        return nil
    }

    /// Whether `uid` (or anyone) could put another file at `path`, looked up in the host's view: it or a
    /// directory above it belongs to `uid`, or is writable by group or others. Then a private group is only as
    /// strong as that, and what the program loaded is not checked.
    private func userCanReplace(_ path: String, uid: UInt32) -> Bool {
        var current = path
        while true {
            guard let status = hostView.status(at: current) else { return true }
            if status.st_uid == uid || status.st_mode & 0o022 != 0 { return true }
            if current == "/" { return false }
            guard let slash = current.lastIndex(of: "/") else { return true }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
    }

    private enum Start { case file, parent }

    /// Why `path` or a directory above it (from `start`) belongs to no one of `owners` or is writable by group or
    /// others, or nil. `known` holds directories already found closed.
    private func unclosed(
        _ path: String, owners: Set<UInt32>, from start: Start = .file, known: inout Set<String>
    ) -> String? {
        guard path.hasPrefix("/") else { return "\(path) is not absolute" }
        var current = path
        var checking = start == .file
        while true {
            if checking, !known.contains(current) {
                var status = stat()
                guard lstat(current, &status) == 0 else { return "\(current) cannot be read" }
                if !owners.contains(status.st_uid) { return "\(current) is owned by uid \(status.st_uid)" }
                if status.st_mode & 0o022 != 0 { return "\(current) is writable by group or others" }
                if current != path { known.insert(current) }
            }
            checking = true
            if current == "/" { return nil }
            guard let slash = current.lastIndex(of: "/") else { return "\(path) is not absolute" }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
    }

    private func unclosed(_ path: String, owners: Set<UInt32>) -> String? {
        var known = Set<String>()
        return unclosed(path, owners: owners, known: &known)
    }
}
