#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A system call that failed: its name, the errno it set (read at once, before any other call could replace it)
/// and the path it was given, where there is one.
package struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call's name (`open`, `rename`, `posix_spawn`, …).
    package let call: String
    /// The errno of the failure.
    package let code: Int32
    /// The path the call was given, when it took one.
    package let path: String?

    package init(call: String, code: Int32, path: String? = nil) {
        self.call = call
        self.code = code
        self.path = path
    }

    /// The system's text for the errno ("No such file or directory").
    package var message: String { String(cString: strerror(code)) }

    package var description: String {
        path.map { "\(call) \($0): \(message)" } ?? "\(call): \(message)"
    }
}
