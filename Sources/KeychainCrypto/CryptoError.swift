/// A failure inside the cryptographic layer. It names the operation, never the bytes involved.
package enum CryptoError: Error, Equatable, CustomStringConvertible {
    /// An authenticated decryption or key unwrap failed: wrong key, altered ciphertext or altered associated data.
    case authenticationFailure
    /// A key or input had a length the algorithm does not accept.
    case invalidLength(operation: String, length: Int)
    /// OpenSSL reported an internal failure (out of memory, missing provider).
    case library(operation: String)

    package var description: String {
        switch self {
        case .authenticationFailure: "authentication failed (wrong key or altered data)"
        case .invalidLength(let operation, let length): "\(operation): invalid length \(length)"
        case .library(let operation): "\(operation): OpenSSL failure"
        }
    }
}
