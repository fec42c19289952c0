internal import CDaemonSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Switching from root to the daemon's own user.
package enum Privileges {
    /// A user account's ids, or nil when there is no such user.
    package static func account(named name: String) -> (uid: UInt32, gid: UInt32)? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return (entry.pw_uid, entry.pw_gid)
    }

    /// Becomes `uid`/`gid` for good (no supplementary groups), keeping only CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH,
    /// which the daemon needs to read other users' `/proc/<pid>/exe`, `root` and `environ`.
    package static func become(uid: UInt32, gid: UInt32) throws(SystemCallError) {
        guard kdaemon_keep_inspection_capabilities(1) == 0 else { throw SystemCallError("prctl PR_SET_KEEPCAPS") }
        guard setgroups(0, nil) == 0 else { throw SystemCallError("setgroups") }
        guard setgid(gid) == 0 else { throw SystemCallError("setgid") }  // as root, sets all three gids
        guard setuid(uid) == 0 else { throw SystemCallError("setuid") }  // as root, sets all three uids
        guard kdaemon_keep_inspection_capabilities(0) == 0 else { throw SystemCallError("capset") }
    }
}
