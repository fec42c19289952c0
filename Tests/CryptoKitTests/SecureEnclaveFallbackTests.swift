import CryptoKit
import Foundation
import KeychainCore
import KeychainTestSupport
import Testing

@testable import EnclaveKeys
@testable import TPMEnclave

// keychain-lint:ignore-file KL603 -- these tests opt in to the software enclave, to see that it is not used

/// When the administrator's software enclave stands in for the TPM: only when no TPM answers.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
struct SecureEnclaveFallbackTests {
    static func status(_ body: () throws -> Void) -> Int32? {
        do {
            try body()
            return nil
        } catch let error as EnclaveError {
            return error.status
        } catch CryptoKitError.underlyingCoreCryptoError(let error) {
            return error
        } catch {
            return 0
        }
    }

    @Test func aFullTPMDoesNotMakeAGoodKeyLookLost() throws {
        try withEnclaveKeychain { _, _ in
            let tpm = try SoftwareTPM()
            try SecureEnclaveBacking.$tctiOverride.withValue(tpm.tcti) {
                let stored = try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation
                // The keychain's connection keeps its primary loaded; other clients' primaries fill the rest.
                var holders: [TPMConnection] = []
                while holders.count < 8, let held = try? TPMConnection(tcti: tpm.tcti) { holders.append(held) }
                #expect(
                    Self.status { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored) } == -25291)
                holders.removeAll()
                let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored)
                #expect(key.publicKey.isValidSignature(try key.signature(for: Data("m".utf8)), for: Data("m".utf8)))
            }
            SecureEnclaveBackends.forgetConnection(to: tpm.tcti)
        }
    }

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
                // errSecNotAvailable: try later; not errSecDecode, which would say the keys are lost.
                #expect(Self.status { _ = try SecureEnclaveBackends.current() } == -25291)
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
