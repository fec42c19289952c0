@_implementationOnly import CDaemonSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The service manager's side of the daemon (sd_listen_fds(3), sd_notify(3)): sockets handed over by
/// socket activation and the readiness message. Without systemd both are no-ops.
package enum ServiceManager {
    /// The listening Unix stream sockets systemd passed (`LISTEN_FDS`), which the environment then forgets.
    package static func activatedSockets() -> [Int32] {
        let count = sd_listen_fds(1)
        guard count > 0 else { return [] }
        let start = kdaemon_listen_fds_start()
        return (start..<(start + count)).filter { sd_is_socket_unix($0, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 }
    }

    /// Tells systemd the daemon is serving (`READY=1`) with a one-line status.
    package static func notifyReady(status: String) {
        _ = sd_notify(0, "READY=1\nSTATUS=\(status)")
    }

    /// Tells systemd the daemon is stopping.
    package static func notifyStopping() {
        _ = sd_notify(0, "STOPPING=1")
    }
}
