import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The machine's files as its first process sees them (`/proc/1/root`, or the root `--host-root` names), where the
/// daemon may look there, else as the daemon sees them: where a private group's path is looked up. Callers'
/// programs live in `/home` and `/tmp`, which the shipped unit hides from the daemon itself (`ProtectHome=yes`,
/// `PrivateTmp=yes`). Looking through pid 1's root
/// needs ptrace read access to it, which root has, and so has the shipped unit's `CAP_SYS_PTRACE`; a daemon a user
/// runs as themselves has not, and keeps its own view. Never a caller's own root: a process given a mount
/// namespace of its own (by a setuid sandbox) could show its own program at another program's path.
package struct HostView: Sendable, Equatable {
    package static let firstProcessRoot = "/proc/1/root"
    let root: String

    package init(root: String = HostView.firstProcessRoot) { self.root = root }

    /// Whether the daemon can look through the root.
    var isVisible: Bool { (try? SystemCalls.stat(root + "/")) != nil }

    /// The absolute `path` as the host sees it: through its root where the daemon can look there. Only for a path
    /// without links (such as one `/proc/<pid>/exe` gives): an absolute link on the way would be followed in the
    /// daemon's own view.
    func path(_ path: String) -> String { isVisible ? root + path : path }
}
