/// A failure of the TPM back end of SecureEnclave keys.
package enum TPMError: Error, Equatable, CustomStringConvertible {
    /// No TPM could be reached through the configured TCTI.
    case unavailable(tcti: String)
    /// The TPM took longer than the connection's timeout (``TPMTimeouts``) to answer: the connection was given up,
    /// and the next use connects anew.
    case timedOut(tcti: String, seconds: Double)
    /// The TPM (or the software stack) refused an operation; the value is the TSS2 response code.
    case tpm(operation: String, code: UInt32)
    /// The connection broke in `operation`: its transport failed (a TCTI error, an answer ESAPI could not take), or
    /// the TPM no longer holds what the connection loaded (it was restarted), code 0: a handle of the connection
    /// names another object now. The connection was given up, and the next use connects anew
    /// (``endsConnection(_:)``).
    case connectionLost(tcti: String, operation: String, code: UInt32)
    /// Connecting anew, after a connection that worked was given up, found no TPM at the TCTI: the TPM went away
    /// (-25291, where a TPM that never answered is ``unavailable(tcti:)``, -4).
    case wentAway(tcti: String)
    /// A call given up `secondsAgo` seconds ago still waits for the TPM at `tcti` (``TPMStuckCalls``): no new
    /// connection is tried, as it would only leave another thread waiting beside that one (-25291).
    case stillUnanswered(tcti: String, secondsAgo: Int)
    /// The TPM's storage primary key is not the one the key's blob names: another TPM, one whose owner seed
    /// changed, or something that impersonates the TPM on its transport. Nothing was sent under it. The key is lost
    /// here (errSecDecode), as when a TPM refuses a blob it cannot load: an app regenerates on that answer, and an
    /// impostor, which can refuse every use anyway, gains nothing from it.
    case foreignStorageKey
    /// A key blob that is not one this back end wrote, or not for this use.
    case invalidKeyBlob
    /// This build was made without TSS2 (`KEYCHAIN_WITHOUT_TPM=1`).
    case notBuiltIn

    package var description: String {
        switch self {
        case .unavailable(let tcti): "no TPM reachable through \(tcti)"
        case .timedOut(let tcti, let seconds): "the TPM at \(tcti) did not answer within \(Self.format(seconds)) s"
        case .tpm(let operation, let code): "TPM \(operation) failed: 0x\(String(code, radix: 16))"
        case .connectionLost(let tcti, let operation, 0):
            "the connection to the TPM at \(tcti) broke (\(operation): its storage primary's handle names another "
                + "object, the TPM was restarted); the next use connects anew"
        case .connectionLost(let tcti, let operation, let code):
            "the connection to the TPM at \(tcti) broke (\(operation) failed: 0x\(String(code, radix: 16))); "
                + "the next use connects anew"
        case .wentAway(let tcti): "the TPM at \(tcti) went away: nothing answers there any more"
        case .stillUnanswered(let tcti, let secondsAgo):
            "the TPM at \(tcti) has not answered a call given up \(secondsAgo) s ago; a new connection is tried "
                + "only once it does, or now and then while few calls wait"
        case .foreignStorageKey: "the TPM's storage key is not the one this key was made under"
        case .invalidKeyBlob: "not a TPM key blob of this keychain"
        case .notBuiltIn: "this build of the keychain has no TPM support (it was built with KEYCHAIN_WITHOUT_TPM=1)"
        }
    }

    /// The OSStatus callers see (CryptoKit as `underlyingCoreCryptoError(error:)`, SecKey as its error's code); the
    /// TSS2 response code stays in ``description``. -4 (errSecUnimplemented) when there is no TPM or no TPM support;
    /// -25291 (errSecNotAvailable: try again later) for a TPM that did not answer in time (or has not answered a call
    /// given up yet), or whose connection broke or went away; -26275 (errSecDecode: the key is lost here) for a TPM
    /// whose storage key is not the key's.
    package var status: Int32 {
        switch self {
        case .unavailable, .notBuiltIn: -4
        case .timedOut, .connectionLost, .wentAway, .stillUnanswered: Self.notAvailable
        case .foreignStorageKey: Self.decode
        case .tpm(let operation, let code): Self.status(operation: operation, code: code)
        case .invalidKeyBlob: -50
        }
    }

    /// Whether the ESAPI connection that reported this can no longer be used, so that ``TPMWorker`` gives it up.
    var endsConnection: Bool {
        switch self {
        case .connectionLost: true
        case .tpm(_, let code): Self.endsConnection(code)
        default: false
        }
    }

    /// This failure, when it ends the connection, as the calls queued behind it on that connection see it.
    func lostConnection(tcti: String) -> TPMError? {
        switch self {
        case .connectionLost: self
        case .tpm(let operation, let code) where Self.endsConnection(code):
            .connectionLost(tcti: tcti, operation: operation, code: code)
        default: nil
        }
    }

    /// Whether a TSS2 response code leaves the ESAPI connection unusable. Every failure below the TPM (ESAPI, SAPI,
    /// marshaling, TCTI: ESAPI keeps its context in an internal-error state after a command that failed there, and
    /// answers every later call with TSS2_ESYS_RC_BAD_SEQUENCE), and the TPM's TPM_RC_REFERENCE_H0…H6 and
    /// TPM_RC_REFERENCE_S0…S6: a handle of the connection's own objects or sessions (the storage primary it made
    /// at connecting) that the TPM no longer has, because it was restarted or someone flushed them. Any other
    /// answer of the TPM (a lockout, a wrong auth value, a policy, a full memory) leaves the connection as it is.
    static func endsConnection(_ code: UInt32) -> Bool {
        switch code >> 16 {
        case 0: return (0x910...0x916).contains(code) || (0x918...0x91E).contains(code)
        case 0x07, 0x08, 0x09, 0x0A: return true
        default: return false
        }
    }

    /// Of the codes that end a connection, those of its transport or of the TPM's state rather than of a bug of
    /// ours: every TCTI error; ESAPI's, SAPI's and marshaling's bad sequence (a context an earlier one broke), no
    /// connection, try again, I/O error, malformed or short response and a response whose HMAC does not verify;
    /// and the TPM's references to handles it no longer has. The call reports them as
    /// ``connectionLost(tcti:operation:code:)`` (errSecNotAvailable).
    static func isTransportFailure(_ code: UInt32) -> Bool {
        switch code >> 16 {
        case 0: return endsConnection(code)
        case 0x0A: return true
        case 0x07, 0x08, 0x09: return [7, 8, 9, 10, 17, 19, 27].contains(code & 0xFFFF)
        default: return false
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
