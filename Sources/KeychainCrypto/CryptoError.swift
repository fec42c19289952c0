/// A failure inside the cryptographic layer. It names the operation, never the bytes involved.
package enum CryptoError: Error, Equatable, CustomStringConvertible {
    /// An authenticated decryption or key unwrap failed: wrong key, altered ciphertext or altered associated data.
    case authenticationFailure
    /// A key or input had a length the algorithm does not accept.
    case invalidLength(operation: String, length: Int)
    /// OpenSSL reported a failure (out of memory, missing provider): the operation that failed and the first
    /// code of OpenSSL's error queue (`ERR_get_error`), 0 when the queue was empty.
    case library(operation: String, code: UInt)

    /// OpenSSL's error code, for a library failure.
    package var libraryCode: UInt? {
        if case .library(_, let code) = self { return code }
        return nil
    }

    package var description: String {
        switch self {
        case .authenticationFailure: "authentication failed (wrong key or altered data)"
        case .invalidLength(let operation, let length): "\(operation): invalid length \(length)"
        case .library(let operation, let code):
            "\(operation): OpenSSL failure (error 0x\(String(code, radix: 16, uppercase: true)))"
        }
    }
}
