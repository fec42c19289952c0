import SystemCalls

extension SecretFile {
    /// What ``identity(path:)`` compares, without an array: the keybag's is checked on every call.
    struct FileIdentity: Equatable {
        let inode: UInt64
        let changeSeconds: Int
        let changeNanoseconds: Int
        let size: Int64
    }

    /// The file's identity as ``identity(path:)`` reads it; nil when it cannot be read.
    static func fileIdentity(path: String) -> FileIdentity? {
        guard let status = try? SystemCalls.stat(path) else { return nil }
        return FileIdentity(
            inode: UInt64(truncatingIfNeeded: status.inode), changeSeconds: status.changeSeconds,
            changeNanoseconds: status.changeNanoseconds, size: Int64(truncatingIfNeeded: status.size))
    }

    /// ``identity(_:)`` for a path already converted to a string: the conversion from a URL costs more than
    /// the `stat` itself, and reads of access-controlled items check the sensor's file on every read.
    static func identity(path: String) -> [Int] {
        guard let status = try? SystemCalls.stat(path) else { return [] }
        return [
            Int(truncatingIfNeeded: status.inode), status.changeSeconds, status.changeNanoseconds,
            Int(truncatingIfNeeded: status.size),
        ]
    }
}
