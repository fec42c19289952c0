#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call, with the errno it gave.
package struct SystemCallError: Error, CustomStringConvertible, Sendable {
    package let operation: String
    package let code: Int32

    package init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    package var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
