package import CryptoKitOpenSSL
import KeychainCore
package import KeychainCrypto

/// A failure of an enclave key operation, as the faces report it: CryptoKit as
/// `CryptoKitError.underlyingCoreCryptoError(error: status)` (or the OpenSSL backend's own case), Security as a
/// `CFError` with the status. Reasons name operations and statuses, never key bytes.
package enum EnclaveError: Error, Sendable, CustomStringConvertible {
    /// A status as Apple's enclave reports it: -4 without an enclave, -50 for bytes that are no key of this
    /// enclave, the keychain's status (-25308, -128, -25293, -26275), or a TPM failure's (``TPMError/status``).
    case status(Int32, reason: String)
    /// A failure of CryptoKit's OpenSSL backend (a peer point off the curve, a parameter of the wrong size).
    case backend(BackendError)
    /// -4 (errSecUnimplemented) from a machine with no enclave: no TPM answers and the administrator did not opt
    /// in to the software enclave. Kept apart from other -4s (a keychaind too old to serve enclave keys), which
    /// SecKey reports as they are.
    case noEnclave(reason: String)

    /// Whether this is ``noEnclave(reason:)``.
    package var isNoEnclave: Bool {
        if case .noEnclave = self { return true }
        return false
    }

    /// errSecParam for bytes that are not a key of this enclave, for this use.
    static let invalidBlob = EnclaveError.status(-50, reason: "the bytes are not a key of this enclave, for this use")

    package var status: Int32 {
        switch self {
        case .status(let status, _): status
        case .backend(.incorrectParameterSize), .backend(.invalidParameter), .backend(.invalidEncoding): -50
        case .backend(.library(let code)): code
        case .backend: -1
        case .noEnclave: -4
        }
    }

    package var description: String {
        switch self {
        case .status(let status, let reason): "\(reason) (\(status))"
        case .backend(let error): "the cryptographic library refused the operation: \(error)"
        case .noEnclave(let reason): "\(reason) (-4)"
        }
    }
}

/// Runs an OpenSSL or AES-GCM step, turning its failures into ``EnclaveError``.
func translatingErrors<R>(_ body: () throws -> R) throws(EnclaveError) -> R {
    do {
        return try body()
    } catch let error as BackendError {
        throw .backend(error)
    } catch let error as EnclaveError {
        throw error
    } catch {
        throw .status(-1, reason: "the cryptographic library failed")
    }
}

/// Overwrites `buffer` with zeros in a way the compiler does not remove (auth values, shared secrets).
func wipeBytes(_ buffer: UnsafeMutableRawBufferPointer) {
    ConstantTime.wipe(buffer)
}
