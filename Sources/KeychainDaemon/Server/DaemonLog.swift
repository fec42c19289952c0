import Foundation
import Synchronization

/// The daemon's log: one line per event on standard error (the journal under systemd). Lines name peers, sizes
/// and reasons, never a payload byte, so no secret can reach it.
package final class DaemonLog: Sendable {
    private let lock = Mutex(())
    private let write: @Sendable (String) -> Void

    /// A log writing to standard error.
    package init() {
        write = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// A log handing each line to `sink` (tests).
    package init(sink: @escaping @Sendable (String) -> Void) { write = sink }

    package func info(_ message: String) { emit("keychaind: " + message) }
    package func warning(_ message: String) { emit("keychaind: warning: " + message) }

    private func emit(_ line: String) {
        lock.withLock { _ in write(line) }
    }
}
