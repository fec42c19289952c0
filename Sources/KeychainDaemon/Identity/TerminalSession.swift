/// The terminal session a process belongs to, as the kernel reports it in `/proc`: what an owner grant is bound
/// to, as sudo binds its timestamps, so that a later `security` process of the same login at the same terminal
/// may reuse it and no other may. Nothing here comes from the client.
package struct TerminalSession: Hashable, Sendable, CustomStringConvertible {
    package let uid: UInt32
    /// The controlling terminal's device number (`tty_nr`); never 0 here.
    package let terminal: Int
    /// The session id: the pid of the session leader (the login shell).
    package let session: Int32
    /// The session leader's start time in clock ticks since boot, so a recycled session id is another session.
    package let leaderStart: UInt64

    /// The session of process `pid` of `uid`; nil when it has no controlling terminal or `/proc` cannot say.
    package static func of(pid: Int32, uid: UInt32) -> TerminalSession? {
        guard let stat = ProcFile.text("/proc/\(pid)/stat"), let fields = Self.fields(stat), fields.count > 4,
            let session = Int32(fields[3]), session > 0, let terminal = Int(fields[4]), terminal != 0,
            let leader = ProcFile.text("/proc/\(session)/stat"), let start = ProcessFacts.startTime(stat: leader)
        else { return nil }
        return TerminalSession(uid: uid, terminal: terminal, session: session, leaderStart: start)
    }

    /// The fields after the command name (field 3, the state, onwards).
    static func fields(_ stat: String) -> [Substring]? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    package var description: String {
        let major = (terminal >> 8) & 0xFFF
        let minor = (terminal & 0xFF) | ((terminal >> 12) & 0xF_FF00)
        return "uid \(uid), terminal \(major):\(minor), session \(session)"
    }
}
