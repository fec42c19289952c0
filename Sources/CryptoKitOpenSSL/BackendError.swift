/// A failure in CryptoKit's OpenSSL backend, translated by the `CryptoKit` module into Apple's error cases.
package enum BackendError: Error, Equatable {
    /// A key had a length the algorithm does not take.
    case incorrectKeySize
    /// A nonce, tag, point or other parameter had the wrong length.
    case incorrectParameterSize
    /// A tag or signature did not verify.
    case authenticationFailure
    /// A value had the right shape but is not acceptable (a point off the curve, a scalar out of range).
    case invalidParameter
    /// DER that does not parse as the expected structure.
    case invalidEncoding
    /// A key unwrap failed its integrity check.
    case unwrapFailure
    /// A key wrap was refused.
    case wrapFailure
    /// OpenSSL failed internally; the value is its packed error code (`ERR_get_error`), 0 when it set none.
    case library(code: Int32)
}
