/// A failure of the TPM back end of SecureEnclave keys.
package enum TPMError: Error, Equatable, CustomStringConvertible {
    /// No TPM could be reached through the configured TCTI.
    case unavailable(tcti: String)
    /// The TPM (or the software stack) refused an operation; the value is the TSS2 response code.
    case tpm(operation: String, code: UInt32)
    /// A key blob that is not one this back end wrote, or not for this use.
    case invalidKeyBlob
    /// This build was made without TSS2 (`KEYCHAIN_WITHOUT_TPM=1`).
    case notBuiltIn

    package var description: String {
        switch self {
        case .unavailable(let tcti): "no TPM reachable through \(tcti)"
        case .tpm(let operation, let code): "TPM \(operation) failed: 0x\(String(code, radix: 16))"
        case .invalidKeyBlob: "not a TPM key blob of this keychain"
        case .notBuiltIn: "this build of the keychain has no TPM support (it was built with KEYCHAIN_WITHOUT_TPM=1)"
        }
    }

    /// The TSS2 response code, or -4 (errSecUnimplemented) when there is no TPM or no TPM support.
    package var code: Int32 {
        switch self {
        case .unavailable, .notBuiltIn: -4
        case .tpm(_, let code): Int32(bitPattern: code)
        case .invalidKeyBlob: -50
        }
    }
}
