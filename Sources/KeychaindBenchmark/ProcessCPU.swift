#if canImport(Glibc)
    import Glibc
#endif

/// CPU time (user and system, all threads, those that ended included) of a process, in nanoseconds: what a
/// lookup costs in CPU, which the wall clock of a shared machine does not say.
enum ProcessCPU {
    /// This process's.
    static func ownNanoseconds() -> UInt64 { read(CLOCK_PROCESS_CPUTIME_ID) ?? 0 }

    /// Another process's (one of this user's, or any as root); nil when it cannot be read.
    static func nanoseconds(of pid: Int32) -> UInt64? {
        var clock = clockid_t()
        guard clock_getcpuclockid(pid, &clock) == 0 else { return nil }
        return read(clock)
    }

    private static func read(_ clock: clockid_t) -> UInt64? {
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
