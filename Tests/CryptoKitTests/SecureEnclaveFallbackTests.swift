import KeychainCore
import KeychainTestSupport
import Testing

@testable import EnclaveKeys
@testable import TPMEnclave

// keychain-lint:ignore-file KL603 -- these tests opt in to the software enclave, to see that it is not used

/// When the administrator's software enclave stands in for the TPM: only when no TPM answers.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
struct SecureEnclaveFallbackTests {
    @Test func aTPMThatAnswersWithARefusalIsNotReplacedBySoftware() throws {
        let tpm = try SoftwareTPM()
        let optIn = try SoftwareEnclaveSettingFile()
        // Without a resource manager swtpm keeps other clients' primary keys loaded: holding enough of them fills
        // its object memory, so that the keychain's CreatePrimary is answered TPM_RC_OBJECT_MEMORY (0x902).
        var holders: [TPMConnection] = []
        while holders.count < 8, let held = try? TPMConnection(tcti: tpm.tcti) { holders.append(held) }
        #expect(throws: TPMError.tpm(operation: "CreatePrimary", code: 0x902)) { try TPMConnection(tcti: tpm.tcti) }
        try SecureEnclaveBacking.$tctiOverride.withValue(tpm.tcti) {
            try SecureEnclaveSetting.$override.withValue(optIn.setting) {
                #expect(optIn.read() == .software)
                #expect(throws: EnclaveError.self) { _ = try SecureEnclaveBackends.current() }
                #expect(SecureEnclaveBackends.backing == .none)
            }
        }
        holders.removeAll()
        // Once the TPM has room, it is the enclave again; and with no TPM at all the opt-in counts.
        try SecureEnclaveBacking.$tctiOverride.withValue(tpm.tcti) {
            try SecureEnclaveSetting.$override.withValue(optIn.setting) {
                #expect(SecureEnclaveBackends.backing == .tpm(tcti: tpm.tcti))
            }
        }
        SecureEnclaveBackends.forgetConnection(to: tpm.tcti)
        try withSoftwareEnclave(optIn) { #expect(SecureEnclaveBackends.backing == .software) }
    }
}
