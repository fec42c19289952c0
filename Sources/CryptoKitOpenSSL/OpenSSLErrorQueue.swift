@_implementationOnly import COpenSSL

/// OpenSSL's per-thread error queue, drained at each failure so that a later operation does not see it.
enum OpenSSLErrorQueue {
    /// The library failure for the current queue, which it empties. The code kept is the reason part of
    /// OpenSSL's packed error (its low 23 bits; `ERR_GET_REASON` is not importable).
    static func failure() -> BackendError {
        let code = ERR_get_error()
        ERR_clear_error()
        return .library(code: Int32(truncatingIfNeeded: code & 0x7F_FFFF))
    }
}
