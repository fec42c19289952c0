import SystemCalls

extension SecretFile {
    /// What tells one version of a file from the next (``SecretFile/identity(_:)``, ``WatchedFile``).
    struct FileIdentity: Equatable, Sendable {
        let inode: UInt64
        let changeSeconds: Int
        let changeNanoseconds: Int
        let size: Int64

        init(_ status: FileStatus) {
            inode = status.inode
            changeSeconds = status.changeSeconds
            changeNanoseconds = status.changeNanoseconds
            size = status.size
        }
    }

    /// The identity of the file at `path` (one `stat`); nil when it cannot be read.
    static func fileIdentity(path: String) -> FileIdentity? {
        (try? SystemCalls.stat(path)).map(FileIdentity.init)
    }
}
