import Foundation

/// Writes the report file of `--output` with the system calls themselves, so a failure is one line with the
/// system's reason rather than a Foundation error description.
enum ReportFile {
    /// Writes `text` to `path`, replacing the file; returns the reason when it cannot.
    static func write(_ text: String, to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            written += result
        }
        bytes.removeAll()
        return nil
    }
}
