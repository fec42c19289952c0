internal import CryptoKitOpenSSL
internal import KeychainCrypto

/// Errors from CryptoKit operations, with Apple's cases.
public enum CryptoKitError: Error, Equatable, Hashable, Sendable {
    /// The key size is incorrect.
    case incorrectKeySize
    /// The parameter size is incorrect.
    case incorrectParameterSize
    /// The authentication tag or signature is incorrect.
    case authenticationFailure
    /// The underlying cryptographic library could not complete the action; the value is its error code.
    case underlyingCoreCryptoError(error: Int32)
    /// The key could not be wrapped.
    case wrapFailure
    /// The key could not be unwrapped.
    case unwrapFailure
    /// The parameter is invalid.
    case invalidParameter
}

/// Errors from parsing ASN.1 (DER and PEM) key representations, with Apple's cases.
public enum CryptoKitASN1Error: Error, Equatable, Hashable, Sendable {
    /// The ASN.1 tag for this field is invalid or unsupported.
    case invalidFieldIdentifier
    /// The ASN.1 tag for the parsed field does not match the required format.
    case unexpectedFieldType
    /// An ASN.1 object identifier is invalid.
    case invalidObjectIdentifier
    /// The parsed ASN.1 object does not have the format the data type requires.
    case invalidASN1Object
    /// An ASN.1 integer does not use the minimum number of bytes for its encoding.
    case invalidASN1IntegerEncoding
    /// An ASN.1 field is truncated.
    case truncatedASN1Field
    /// The encoding used for the field length is unsupported.
    case unsupportedFieldLength
    /// The string does not parse as a PEM document.
    case invalidPEMDocument
}

/// Runs `body`, turning the backend's and the random source's failures into Apple's error values.
func translatingErrors<R>(_ body: () throws -> R) throws -> R {
    do {
        return try body()
    } catch let error as BackendError {
        throw error.publicError
    } catch is CryptoError {
        throw CryptoKitError.underlyingCoreCryptoError(error: -1)
    }
}

extension BackendError {
    /// The error CryptoKit's callers see.
    var publicError: any Error {
        switch self {
        case .incorrectKeySize: CryptoKitError.incorrectKeySize
        case .incorrectParameterSize: CryptoKitError.incorrectParameterSize
        case .authenticationFailure: CryptoKitError.authenticationFailure
        case .invalidParameter: CryptoKitError.invalidParameter
        case .invalidEncoding: CryptoKitASN1Error.invalidASN1Object
        case .unwrapFailure: CryptoKitError.unwrapFailure
        case .wrapFailure: CryptoKitError.wrapFailure
        case .library(let code): CryptoKitError.underlyingCoreCryptoError(error: code)
        }
    }
}
