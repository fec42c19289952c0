@_implementationOnly import CSystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Accounts, user and group ids, and capabilities.
extension SystemCalls {
    /// A user account's uid and gid (`getpwnam_r`), nil when there is no such account.
    package static func account(named name: String) -> (uid: UInt32, gid: UInt32)? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        // getpwnam_r answers its error instead of setting errno; either way there is no account to use.
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return (entry.pw_uid, entry.pw_gid)
    }

    /// Makes the supplementary groups those of the account `name` in the group database (`initgroups(3)`), and
    /// only them: whatever groups the starting process had are dropped.
    package static func takeAccountGroups(name: String, gid: UInt32) throws(SystemCallError) {
        try once("initgroups") { initgroups(name, gid) }
    }

    /// `setgid(2)`: as root, sets the real, effective and saved gids.
    package static func setGroupID(_ gid: UInt32) throws(SystemCallError) {
        try once("setgid") { setgid(gid) }
    }

    /// `setuid(2)`: as root, sets the real, effective and saved uids.
    package static func setUserID(_ uid: UInt32) throws(SystemCallError) {
        try once("setuid") { setuid(uid) }
    }

    /// Whether the permitted capabilities survive a `setuid` from root (`PR_SET_KEEPCAPS`).
    package static func keepCapabilitiesAcrossSetuid(_ keep: Bool) throws(SystemCallError) {
        try once("prctl PR_SET_KEEPCAPS") { ksys_keep_capabilities(keep ? 1 : 0) }
    }

    /// Makes the process non-dumpable (`PR_SET_DUMPABLE` 0): it leaves no core file, and processes of its own uid
    /// can no longer trace it or read its memory and environment through `/proc` (only `CAP_SYS_PTRACE` can). A
    /// change of uid or gid resets the setting (to `fs.suid_dumpable`), so it is made after one.
    package static func forbidDumpsAndTracing() throws(SystemCallError) {
        try once("prctl PR_SET_DUMPABLE") { ksys_set_dumpable(0) }
    }

    /// Whether the process may leave a core file (`PR_GET_DUMPABLE` is not 0: 1, or 2 for one only root may read).
    package static var isDumpable: Bool { ksys_dumpable() != 0 }

    /// Makes `capabilities` (numbers of `capability.h`: `CAP_SYS_PTRACE` is 19) this thread's effective and
    /// permitted capabilities, and only them (`capset`).
    package static func setCapabilities(_ capabilities: [Int32]) throws(SystemCallError) {
        guard capabilities.allSatisfy({ (0..<64).contains($0) }) else {
            throw SystemCallError(call: "capset", code: EINVAL)
        }
        let mask = capabilities.reduce(UInt64(0)) { $0 | (1 << UInt64($1)) }
        try once("capset") { ksys_set_capabilities(mask) }
    }

    /// Sets this process's core file size limit, soft and hard, to 0 (`RLIMIT_CORE`): a crash or a SIGQUIT
    /// leaves no core file with the secrets typed into it, and core handlers that honour the limit (systemd-coredump,
    /// apport) keep none either. Unlike ``forbidDumpsAndTracing()`` it leaves `/proc/<pid>` readable to the
    /// process's own uid, which a keychaind running as that user needs to know its client.
    package static func forbidCoreFiles() throws(SystemCallError) {
        let none = rlimit(rlim_cur: 0, rlim_max: 0)
        let resource = __rlimit_resource_t(RLIMIT_CORE.rawValue)
        try once("setrlimit RLIMIT_CORE") { withUnsafePointer(to: none) { setrlimit(resource, $0) } }
    }

    /// Raises this process's soft limit on open files to its hard limit, up to `ceiling`; returns the soft limit
    /// now in force (nil when it cannot be read).
    @discardableResult
    package static func raiseOpenFileLimit(upTo ceiling: UInt64) -> UInt64? {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let wanted = min(limit.rlim_max, rlim_t(ceiling))
        if limit.rlim_cur < wanted {
            let raised = rlimit(rlim_cur: wanted, rlim_max: limit.rlim_max)
            if withUnsafePointer(to: raised, { setrlimit(resource, $0) }) == 0 { limit.rlim_cur = wanted }
        }
        return UInt64(limit.rlim_cur)
    }
}
