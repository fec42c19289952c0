#if canImport(Glibc)
import Glibc
#endif

extension SecretFile {
    /// ``identity(_:)`` for a path already converted to a string: the conversion from a URL costs more than
    /// the `stat` itself, and reads of access-controlled items check the sensor's file on every read.
    static func identity(path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [
            Int(truncatingIfNeeded: info.st_ino), info.st_ctim.tv_sec, info.st_ctim.tv_nsec,
            Int(truncatingIfNeeded: info.st_size),
        ]
    }
}
