#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where this process stands in its terminal's job control.
public enum JobControl {
    /// Whether `terminal` is this process's controlling terminal and another process group has its foreground.
    /// Such a process is stopped (SIGTTOU, SIGTTIN) as soon as it changes the terminal's settings or reads from
    /// it: a background job, or a program its runner started in a process group of its own, which nobody may
    /// ever resume. False for a terminal that is not the controlling one: job control does not apply there.
    public static func isInBackground(of terminal: Int32) -> Bool {
        let foreground = tcgetpgrp(terminal)
        return foreground > 0 && foreground != getpgrp()
    }

    /// What to say of a process in the background of `terminalName`.
    public static func backgroundReason(_ terminalName: String) -> String {
        "this process is in the background of \(terminalName) (a background job, or started by a runner such "
            + "as swift test in a process group of its own), where a prompt would stop it"
    }
}
