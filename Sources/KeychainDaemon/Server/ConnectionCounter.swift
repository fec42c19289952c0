import Synchronization

/// Counts open connections per uid and in all, and turns away those over the limits.
package final class ConnectionCounter: Sendable {
    private struct Counts {
        var perUID: [UInt32: Int] = [:]
        var total = 0
    }

    private let counts = Mutex(Counts())
    private let limits: ConnectionLimits

    package init(limits: ConnectionLimits) { self.limits = limits }

    /// Takes a place for a connection of `uid`; the reason it cannot, or nil. A place taken is given back with
    /// ``release(uid:)``.
    package func admit(uid: UInt32) -> String? {
        counts.withLock { counts in
            if counts.total >= limits.connections {
                return "the daemon holds its limit of \(limits.connections) connections"
            }
            let held = counts.perUID[uid, default: 0]
            if held >= limits.connectionsPerUID {
                return "uid \(uid) holds its limit of \(limits.connectionsPerUID) connections"
            }
            counts.perUID[uid] = held + 1
            counts.total += 1
            return nil
        }
    }

    package func release(uid: UInt32) {
        counts.withLock { counts in
            let held = counts.perUID[uid, default: 0]
            counts.perUID[uid] = held > 1 ? held - 1 : nil
            counts.total = max(0, counts.total - 1)
        }
    }

    /// Connections open now.
    package var total: Int { counts.withLock { $0.total } }
}
