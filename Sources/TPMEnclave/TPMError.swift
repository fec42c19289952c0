/// A failure of the TPM back end of SecureEnclave keys.
package enum TPMError: Error, Equatable, CustomStringConvertible {
    /// No TPM could be reached through the configured TCTI.
    case unavailable(tcti: String)
    /// The TPM took longer than the connection's timeout (``TPMTimeouts``) to answer: the connection was given up,
    /// and the next use connects anew.
    case timedOut(tcti: String, seconds: Double)
    /// The TPM (or the software stack) refused an operation; the value is the TSS2 response code.
    case tpm(operation: String, code: UInt32)
    /// A key blob that is not one this back end wrote, or not for this use.
    case invalidKeyBlob
    /// This build was made without TSS2 (`KEYCHAIN_WITHOUT_TPM=1`).
    case notBuiltIn

    package var description: String {
        switch self {
        case .unavailable(let tcti): "no TPM reachable through \(tcti)"
        case .timedOut(let tcti, let seconds): "the TPM at \(tcti) did not answer within \(Self.format(seconds)) s"
        case .tpm(let operation, let code): "TPM \(operation) failed: 0x\(String(code, radix: 16))"
        case .invalidKeyBlob: "not a TPM key blob of this keychain"
        case .notBuiltIn: "this build of the keychain has no TPM support (it was built with KEYCHAIN_WITHOUT_TPM=1)"
        }
    }

    /// The OSStatus callers see (CryptoKit as `underlyingCoreCryptoError(error:)`, SecKey as its error's code); the
    /// TSS2 response code stays in ``description``. -4 (errSecUnimplemented) when there is no TPM or no TPM support;
    /// -25291 (errSecNotAvailable: try again later) for a TPM that did not answer in time.
    package var status: Int32 {
        switch self {
        case .unavailable, .notBuiltIn: -4
        case .timedOut: Self.notAvailable
        case .tpm(let operation, let code): Self.status(operation: operation, code: code)
        case .invalidKeyBlob: -50
        }
    }

    /// Whole seconds without a fraction ("10", "1.5").
    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    // OSStatus values (Security's SecBase.h): this module sits below the Security face.
    private static let notAvailable: Int32 = -25291
    private static let interactionNotAllowed: Int32 = -25308
    private static let authFailed: Int32 = -25293
    private static let decode: Int32 = -26275
    private static let param: Int32 = -50
    private static let internalComponent: Int32 = -2070

    /// The status of a TSS2 response code from `operation`. Only a Load's refusal of the blob itself means "made by
    /// another TPM, or before this one's seeds changed" (errSecDecode): a caller may give such a key up, so a TPM
    /// that is busy, full, locked out or out of reach must never answer it.
    static func status(operation: String, code: UInt32) -> Int32 {
        switch code >> 16 {
        case 0: break
        // TCTI, resource manager, resource manager's TPM: the TPM could not be reached, or did not answer in time.
        case 0x0A, 0x0B, 0x0C: return notAvailable
        // ESAPI or SAPI: try again (a timeout), else a response that does not check or a bug of ours.
        default: return code & 0xFFFF == 9 ? notAvailable : internalComponent
        }
        let formatOne = code & 0x80 != 0
        guard formatOne else {
            if code == 0x921 { return interactionNotAllowed }  // TPM_RC_LOCKOUT: until the recovery time passes
            if code & 0x900 == 0x900 { return notAvailable }  // warnings: memory, handles, retry, yielded, testing
            // TPM_RC_INITIALIZE, TPM_RC_FAILURE: not started, or in failure mode.
            return code == 0x100 || code == 0x101 ? notAvailable : internalComponent
        }
        let number = code & 0x3F
        let aboutSession = code & 0x40 == 0 && code & 0x800 != 0
        if aboutSession {
            // TPM_RC_AUTH_FAIL, TPM_RC_BAD_AUTH: the auth value presented is not the key's.
            return number == 0x0E || number == 0x22 ? authFailed : internalComponent
        }
        switch operation {
        // The hierarchy refused its primary (disabled, an owner password set): no key's fault.
        case "CreatePrimary": return notAvailable
        // A parameter refused is the blob (TPM_RC_INTEGRITY, TPM_RC_BINDING, …); the handle is the parent, ours.
        case "Load": return code & 0x40 != 0 ? decode : notAvailable
        default: return param  // the input
        }
    }
}
