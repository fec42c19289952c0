import SystemCalls

/// Switching from root to the daemon's own user.
package enum Privileges {
    /// A user account's ids, or nil when there is no such user.
    package static func account(named name: String) -> (uid: UInt32, gid: UInt32)? {
        SystemCalls.account(named: name)
    }

    /// `CAP_SYS_PTRACE`: ptrace read access, which another user's `/proc/<pid>/exe` and `root` need.
    package static let ptraceCapability: Int32 = 19
    /// `CAP_DAC_READ_SEARCH`: what another user's `/proc/<pid>/environ`, mode 0400, needs.
    package static let readSearchCapability: Int32 = 2

    /// The capabilities kept when the daemon leaves root.
    static let inspectionCapabilities = [ptraceCapability, readSearchCapability]

    /// Becomes the account `name` (`uid`/`gid`) for good, with its own supplementary groups only (such as `tss`,
    /// for the TPM's device), keeping only CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH, which the daemon needs to read
    /// other users' `/proc/<pid>/exe`, `root` and `environ`, and stays non-dumpable (``keepMemoryPrivate()``).
    package static func become(name: String, uid: UInt32, gid: UInt32) throws(SystemCallError) {
        try SystemCalls.keepCapabilitiesAcrossSetuid(true)
        try SystemCalls.takeAccountGroups(name: name, gid: gid)
        try SystemCalls.setGroupID(gid)  // as root, sets all three gids
        try SystemCalls.setUserID(uid)  // as root, sets all three uids
        // The kept capabilities are permitted only: make the two effective again, and only them.
        try SystemCalls.setCapabilities(inspectionCapabilities)
        try SystemCalls.keepCapabilitiesAcrossSetuid(false)
        // The change of uid reset dumpability to the machine's `fs.suid_dumpable`, which may allow core files.
        try keepMemoryPrivate()
    }

    /// Keeps the process's memory to itself: no core file, and no process of its uid may trace it or read its
    /// memory or environment through `/proc` (``SystemCalls/forbidDumpsAndTracing()``). The daemon holds class
    /// keys, device keys and, while it answers, secrets; a daemon a user runs as themselves would otherwise be
    /// open to every other program of that user.
    package static func keepMemoryPrivate() throws(SystemCallError) {
        try SystemCalls.forbidDumpsAndTracing()
    }

    /// Whether the process keeps its memory to itself now (``keepMemoryPrivate()``, not undone since).
    package static var keepsMemoryPrivate: Bool { !SystemCalls.isDumpable }
}
