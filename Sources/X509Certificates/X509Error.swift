/// A failure reading or checking certificates. It names what went wrong, never a passphrase or key bytes.
package enum X509Error: Error, Equatable, CustomStringConvertible {
    /// The bytes are not what they should be (not DER, trailing bytes, a structure that does not parse).
    case malformed(String)
    /// A PKCS#12 file's integrity check failed: the passphrase is wrong (or the file was altered).
    case wrongPassphrase
    /// OpenSSL failed for a reason of its own (out of memory, a missing provider).
    case library(String)

    package var description: String {
        switch self {
        case .malformed(let reason): reason
        case .wrongPassphrase: "the passphrase does not open this PKCS#12 file (its integrity check failed)"
        case .library(let operation): "\(operation): OpenSSL failure"
        }
    }
}
