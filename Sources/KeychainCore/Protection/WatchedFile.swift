import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A file that other processes replace whole (written beside it, then renamed over it, as ``SecretFile`` does),
/// watched through a descriptor kept open: whether it changed is one `fstat`, not a `stat` of its path, whose
/// path walk cost about two microseconds on every read of an item (the keybag's and the biometric sensor's files
/// are checked on each). A replacement leaves the watched file without a name (`st_nlink` 0), and the path is
/// then opened again. Another name given to the old file on purpose would hide a replacement from this watch,
/// which only the keychain's owner can do in its 0700 home.
final class WatchedFile: Sendable {
    let path: String
    /// The descriptor of the file last found at `path`; -1 before it is found.
    private let descriptor = Mutex<Int32>(-1)

    init(path: String) { self.path = path }

    deinit {
        descriptor.withLock { if $0 >= 0 { SystemCalls.close($0) } }
    }

    /// The identity of the file at `path` now, as ``SecretFile/fileIdentity(path:)`` gives it; nil when there
    /// is none.
    func identity() -> SecretFile.FileIdentity? {
        descriptor.withLock { watched -> SecretFile.FileIdentity? in
            if watched >= 0 {
                if let status = try? SystemCalls.fstat(watched), status.linkCount > 0 {
                    return SecretFile.FileIdentity(status)
                }
                SystemCalls.close(watched)
                watched = -1
            }
            guard let opened = try? SystemCalls.open(path, O_RDONLY) else { return nil }
            guard let status = try? SystemCalls.fstat(opened) else {
                SystemCalls.close(opened)
                return nil
            }
            watched = opened
            return SecretFile.FileIdentity(status)
        }
    }
}
