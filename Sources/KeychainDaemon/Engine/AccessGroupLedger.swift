import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Every access group keychaind has let a client of each uid act in, kept in `<state>/<uid>/access-groups`
/// (one per line). An item of a uid's keychain can only have been written by a request of such a client, so
/// these are the groups of all the uid's items: what owner rights cover. Item digests keep the groups
/// themselves out of the database.
package final class AccessGroupLedger: Sendable {
    private let stateDirectory: String
    private let known = Mutex<[UInt32: Set<String>]>([:])

    package init(stateDirectory: String) {
        self.stateDirectory = stateDirectory
    }

    /// Records `groups` for `uid` before a request acts in them; a new one is written and synced at once.
    package func note(_ groups: [String], uid: UInt32) {
        known.withLock { known in
            var current = known[uid] ?? load(uid)
            let new = groups.filter { !current.contains($0) && !$0.contains("\n") }
            if !new.isEmpty {
                append(new, uid: uid)
                current.formUnion(new)
            }
            known[uid] = current
        }
    }

    /// The groups of `uid`, sorted.
    package func groups(of uid: UInt32) -> [String] {
        known.withLock { known in
            let current = known[uid] ?? load(uid)
            known[uid] = current
            return current.sorted()
        }
    }

    private func path(_ uid: UInt32) -> String { stateDirectory + "/" + String(uid) + "/access-groups" }

    private func load(_ uid: UInt32) -> Set<String> {
        guard let text = try? String(contentsOfFile: path(uid), encoding: .utf8) else { return [] }
        return Set(text.split(separator: "\n").map(String.init))
    }

    private func append(_ groups: [String], uid: UInt32) {
        let descriptor = open(path(uid), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(groups.map { $0 + "\n" }.joined().utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
    }
}
