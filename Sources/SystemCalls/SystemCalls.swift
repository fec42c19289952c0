#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one place the project's wrappers make their system calls: each call's errno is captured as soon as it
/// returns, into a ``SystemCallError``, and a call interrupted by a signal (`EINTR`) is made again here, nowhere
/// else.
package enum SystemCalls {
    /// Makes `call` (a system call that answers -1 and sets errno on failure), again while it is interrupted.
    /// - Throws: ``SystemCallError`` named `name`, with the errno of the failed call.
    @discardableResult
    package static func retrying<Result: BinaryInteger>(
        _ name: String, path: String? = nil, _ call: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw SystemCallError(call: name, code: code, path: path) }
        }
    }

    /// Makes `call` once (a call that must not be repeated, such as `close`), capturing its errno on failure.
    @discardableResult
    package static func once<Result: BinaryInteger>(
        _ name: String, path: String? = nil, _ call: () -> Result
    ) throws(SystemCallError) -> Result {
        let result = call()
        guard result >= 0 else { throw SystemCallError(call: name, code: errno, path: path) }
        return result
    }
}
