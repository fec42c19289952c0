import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The machine's files as its first process sees them (`/proc/1/root`, or the root `--host-root` names), where the
/// daemon may look there, else as the daemon sees them: where a private group's path is looked up. Callers'
/// programs live in `/home` and `/tmp`, which the shipped unit hides from the daemon itself (`ProtectHome=yes`,
/// `PrivateTmp=yes`). Looking through pid 1's root needs ptrace read access to it, which root has, and so has the
/// shipped unit's `CAP_SYS_PTRACE`; a daemon a user runs as themselves has not, and keeps its own view. Never a
/// caller's own root: a process given a mount namespace of its own (by a setuid sandbox) could show its own
/// program at another program's path.
package struct HostView: Sendable, Equatable {
    package static let firstProcessRoot = "/proc/1/root"
    let root: String

    package init(root: String = HostView.firstProcessRoot) { self.root = root }

    /// Whether the daemon can look through the root (else it looks in its own view).
    package var isVisible: Bool {
        let base = open(root, SystemCalls.pathOnly | O_DIRECTORY | O_CLOEXEC)
        if base >= 0 { SystemCalls.close(base) }
        return base >= 0
    }

    /// The status of the file at the absolute `path` as the host sees it, links not followed; nil when there is
    /// none.
    func status(at path: String) -> stat? {
        beneathRoot(path) { base, name in
            var status = stat()
            return fstatat(base, name, &status, AT_SYMLINK_NOFOLLOW) == 0 ? status : nil
        }
    }

    /// Calls `body` with the root opened (the daemon's own when this one cannot be looked through) and `path`
    /// relative to it; nil when neither opens.
    private func beneathRoot<Result>(_ path: String, _ body: (Int32, String) -> Result?) -> Result? {
        var base = open(root, SystemCalls.pathOnly | O_DIRECTORY | O_CLOEXEC)
        if base < 0 { base = open("/", SystemCalls.pathOnly | O_DIRECTORY | O_CLOEXEC) }
        guard base >= 0 else { return nil }
        defer { SystemCalls.close(base) }
        let relative = String(path.drop { $0 == "/" })
        return body(base, relative.isEmpty ? "." : relative)
    }

    /// The device and inode of the file at the absolute `path` as the host sees it, or nil when there is none or
    /// the path goes through a link (a path `/proc/<pid>/exe` gives has none; one swapped in since would be
    /// followed in the daemon's own view). Before Linux 5.6, which cannot refuse links, links are followed.
    func fileIdentity(at path: String) -> FileIdentity? {
        beneathRoot(path) { base, name in identity(of: name, beneath: base) }
    }

    private func identity(of name: String, beneath base: Int32) -> FileIdentity? {
        let file: Int32
        do {
            file = try SystemCalls.openWithoutLinks(name, beneath: base, flags: SystemCalls.pathOnly | O_CLOEXEC)
        } catch  where error.code == ENOSYS {
            var status = stat()
            guard fstatat(base, name, &status, 0) == 0 else { return nil }
            return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        } catch {
            return nil
        }
        defer { SystemCalls.close(file) }
        return (try? SystemCalls.fstat(file)).map { FileIdentity(device: $0.device, inode: $0.inode) }
    }
}
