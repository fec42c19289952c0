import SystemCalls

extension SecretFile {
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
