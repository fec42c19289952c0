@_implementationOnly import COpenSSL

extension CryptoError {
    /// The failure of `operation` as OpenSSL reports it: the first code of this thread's error queue, which is
    /// then emptied so that a later failure is not blamed on this one.
    static func openSSL(_ operation: String) -> CryptoError {
        let code = ERR_get_error()
        ERR_clear_error()
        return .library(operation: operation, code: UInt(code))
    }

    /// An authentication failure; OpenSSL's queue is emptied of whatever the failed check left there.
    static var rejected: CryptoError {
        ERR_clear_error()
        return .authenticationFailure
    }
}
