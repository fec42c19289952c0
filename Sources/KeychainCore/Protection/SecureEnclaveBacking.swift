import Foundation

/// What keeps SecureEnclave keys on this machine: a TPM 2.0, the administrator's software enclave, or nothing.
/// CryptoKit's `SecureEnclave` connects to the TPM to decide; `security show-keychain-info` (a static binary
/// without the TPM software stack) reports the configuration: the TPM named by `KEYCHAIN_TPM_TCTI` or the kernel's
/// resource manager when its device exists, else the software enclave when the setting opts in, else none.
package enum SecureEnclaveBacking: Equatable, Sendable, CustomStringConvertible {
    /// A TPM 2.0, reached through the TCTI ("device:/dev/tpmrm0", "swtpm:host=…,port=…").
    case tpm(tcti: String)
    /// The administrator's software enclave (``SecureEnclaveSetting``).
    case software
    /// Neither: `SecureEnclave.isAvailable` is false.
    case none

    /// The environment variable that names a TCTI (spelled as `tpm2-tools` spell it); it overrides the kernel's
    /// resource manager device.
    package static let tctiVariable = "KEYCHAIN_TPM_TCTI"
    /// The kernel's TPM resource manager.
    package static let resourceManager = "/dev/tpmrm0"

    /// The TCTI a test points the enclave at, for the task it runs in; the empty string means no TPM.
    @TaskLocal package static var tctiOverride: String? = nil

    /// The TCTI of this task's TPM: the test's override, else the environment variable, else the kernel's resource
    /// manager when its device exists; nil when there is none.
    package static func configuredTCTI(_ environment: EnvironmentVariables = .process) -> String? {
        if let tctiOverride { return tctiOverride.isEmpty ? nil : tctiOverride }
        if let configured = environment[tctiVariable] { return configured }
        return FileManager.default.fileExists(atPath: resourceManager) ? "device:" + resourceManager : nil
    }

    /// The enclave this machine is configured for, without talking to a TPM.
    package static func configured(_ environment: EnvironmentVariables = .process) -> SecureEnclaveBacking {
        if let tcti = configuredTCTI(environment) { return .tpm(tcti: tcti) }
        return SecureEnclaveSetting.current.read() == .software ? .software : .none
    }

    /// "TPM 2.0 (/dev/tpmrm0)", "software (administrator opt-in, not hardware-backed)" or "none".
    package var description: String {
        switch self {
        case .tpm: "TPM 2.0 (\(device ?? ""))"
        case .software: "software (administrator opt-in, not hardware-backed)"
        case .none: "none"
        }
    }

    /// One word for scripts: "tpm", "software" or "none".
    package var kind: String {
        switch self {
        case .tpm: "tpm"
        case .software: "software"
        case .none: "none"
        }
    }

    /// The TPM's device path (for a `device:` TCTI) or its TCTI; nil without a TPM.
    package var device: String? {
        guard case .tpm(let tcti) = self else { return nil }
        return tcti.hasPrefix("device:") ? String(tcti.dropFirst("device:".count)) : tcti
    }

    /// Whether keys live in hardware.
    package var isHardwareBacked: Bool {
        if case .tpm = self { return true }
        return false
    }
}
