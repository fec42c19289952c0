import DaemonSystem
import Foundation
import KeychainTestSupport
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A daemon that leads a session of its own without a terminal (as `setsid` starts it, and as a service runs)
/// takes the first terminal it opens without `O_NOCTTY` as its controlling terminal, whose Control-C then stops
/// it. `security apps show` of a pseudo-terminal the asker holds must not open it.
@Suite(.serialized) struct ControllingTerminalTests {
    static let canStartASession = FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid")

    @Test(.enabled(if: canStartASession, "needs setsid(1)"))
    func explainingATerminalGivesTheDaemonNoControllingTerminal() throws {
        let daemon = try DaemonProcess(launcher: ["/usr/bin/setsid"])
        // setsid forks when it leads a process group already: the daemon is whoever serves the socket.
        let connection = try UnixConnector.connect(to: daemon.socketPath)
        let daemonPid = try SystemCalls.peerCredentials(of: connection).pid
        SystemCalls.close(connection)
        defer { if daemonPid != daemon.pid { kill(daemonPid, SIGTERM) } }
        let before = try #require(Self.sessionAndTerminal(of: daemonPid))
        #expect(before.session == daemonPid && before.terminal == 0, "not a session leader without a terminal")

        let terminal = try PseudoTerminal.open()
        defer { close(terminal.master) }
        chmod(terminal.path, 0o666)
        let client = try AppIsolationTests.Apps.clientExecutable()
        let shown = try runClient(client, ["explain", terminal.path], socket: daemon.socketPath).fields
        #expect(shown["decision"] == "refused", "\(shown)")
        #expect(Self.sessionAndTerminal(of: daemonPid)?.terminal == 0, "the terminal became the daemon's")
        // Control-C at the terminal reaches no one.
        var interrupt: UInt8 = 3
        #expect(write(terminal.master, &interrupt, 1) == 1)
        usleep(200_000)
        #expect(kill(daemonPid, 0) == 0, "the daemon was stopped by the terminal")
        #expect(try daemon.connect().request(.ping).kind == .pong)
    }

    /// The session id and controlling terminal (`tty_nr`, 0 for none) of `pid`, from `/proc/<pid>/stat`.
    static func sessionAndTerminal(of pid: Int32) -> (session: Int32, terminal: Int32)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the name: state, ppid, pgrp, session, tty_nr.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 4, let session = Int32(fields[3]), let terminal = Int32(fields[4]) else { return nil }
        return (session, terminal)
    }
}
