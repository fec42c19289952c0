import Foundation
import KeychainCore
import KeychainTestSupport
import LocalAuthentication
import Security
import Testing

@testable import CryptoKit

#if canImport(Glibc)
    import Glibc
#endif

// keychain-lint:ignore-file KL603 -- these tests opt in to the software enclave they check

/// The administrator's software enclave: keys made in software where no TPM answers, sealed by the keychain home's
/// device key and by their access control, and never reported as hardware-backed.
@Suite(.serialized) struct CryptoKitSoftwareEnclaveTests {
    let message = Data("sign me".utf8)

    static func status(_ body: () throws -> Void) -> Int32? {
        do {
            try body()
            return nil
        } catch CryptoKitError.underlyingCoreCryptoError(let error) {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return 0
        }
    }

    static func access(
        _ flags: SecAccessControlCreateFlags, _ protection: CFString = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
    ) -> SecAccessControl {
        SecAccessControlCreateWithFlags(nil, protection, [.privateKeyUsage, flags], nil)!
    }

    // MARK: Availability and the setting

    @Test func isNotAvailableWithoutATPMAndWithoutTheOptIn() throws {
        let absent = SecureEnclaveSetting(path: "/nonexistent-\(UUID())/secure-enclave", administrator: 0)
        try SecureEnclaveBacking.$tctiOverride.withValue("") {
            try SecureEnclaveSetting.$override.withValue(absent) {
                #expect(SecureEnclave.isAvailable == false)
                #expect(SecureEnclave.backing == .none)
                #expect(SecureEnclave.backing.description == "none")
                #expect(Self.status { _ = try SecureEnclave.P256.Signing.PrivateKey() } == -4)
                try withEnclaveKeychain { _, _ in
                    #expect(Self.status { _ = try SecureEnclave.P256.KeyAgreement.PrivateKey() } == -4)
                }
            }
        }
    }

    @Test func theOptInMakesTheEnclaveAvailableAsSoftware() throws {
        try withSoftwareEnclave {
            #expect(SecureEnclave.isAvailable)
            #expect(SecureEnclave.backing == .software)
            #expect(SecureEnclave.backing.description == "software (administrator opt-in, not hardware-backed)")
            #expect(!SecureEnclave.backing.isHardwareBacked)
        }
    }

    @Test func theSettingCountsOnlyWhenItsOwnerAloneMayWriteIt() throws {
        let groupWritable = try SoftwareEnclaveSettingFile(mode: 0o664)
        #expect(groupWritable.read() == .off(reason: "\(groupWritable.file.path) is writable by its group"))
        let othersWritable = try SoftwareEnclaveSettingFile(mode: 0o646)
        #expect(othersWritable.read() == .off(reason: "\(othersWritable.file.path) is writable by others"))
        let openDirectory = try SoftwareEnclaveSettingFile(directoryMode: 0o777)
        #expect(
            openDirectory.read() == .off(reason: "\(openDirectory.directory.path) is writable by its group"))
        for ignored in [groupWritable, othersWritable, openDirectory] {
            try withSoftwareEnclave(ignored) {
                #expect(SecureEnclave.isAvailable == false)
                #expect(Self.status { _ = try SecureEnclave.P256.Signing.PrivateKey() } == -4)
            }
        }
        // A read-only file (0444, 0400) in a 0700 directory counts.
        let strict = try SoftwareEnclaveSettingFile(mode: 0o400, directoryMode: 0o700)
        #expect(strict.read() == .software)
    }

    @Test func aSettingOwnedByAnotherUserIsIgnored() throws {
        let file = try SoftwareEnclaveSettingFile()
        defer { withExtendedLifetime(file) {} }
        // Root can give the file away; another user sees a file whose owner is not the administrator the same way.
        let other: uid_t = 65534
        var setting = file.setting
        if getuid() == 0 {
            #expect(chown(file.file.path, other, 0) == 0)
        } else {
            setting.administrator = getuid() &+ 1
        }
        let owner = getuid() == 0 ? other : getuid()
        let expected = "\(file.file.path) is owned by user \(owner), not \(setting.administrator)"
        #expect(setting.read() == .off(reason: expected))
        SecureEnclaveSetting.$override.withValue(setting) {
            SecureEnclaveBacking.$tctiOverride.withValue("") { #expect(SecureEnclave.isAvailable == false) }
        }
        // The directory counts too.
        let directory = try SoftwareEnclaveSettingFile()
        defer { withExtendedLifetime(directory) {} }
        var moved = directory.setting
        if getuid() == 0 {
            #expect(chown(directory.directory.path, other, 0) == 0)
            #expect(moved.read() == .off(reason: "\(directory.directory.path) is owned by user \(other), not 0"))
        } else {
            moved.administrator = getuid() &+ 1
            #expect(moved.read() != .software)
        }
    }

    @Test func theSettingNamesSoftwareAloneAndSymbolicLinksDoNotCount() throws {
        let commented = try SoftwareEnclaveSettingFile("# opt in\n  software  # no TPM here\n")
        #expect(commented.read() == .software)
        let none = try SoftwareEnclaveSettingFile("none\n")
        #expect(none.read() == .off(reason: nil))
        let unknown = try SoftwareEnclaveSettingFile("hardware\n")
        #expect(unknownReason(unknown)?.contains("names an unknown enclave") == true)
        let empty = try SoftwareEnclaveSettingFile("# nothing\n")
        #expect(empty.read() == .off(reason: "\(empty.file.path) names no enclave"))
        let two = try SoftwareEnclaveSettingFile("software none\n")
        #expect(two.read() != .software)
        let target = try SoftwareEnclaveSettingFile()
        defer { withExtendedLifetime(target) {} }
        let link = target.directory.appendingPathComponent("linked")
        #expect(symlink(target.file.path, link.path) == 0)
        let linked = SecureEnclaveSetting(path: link.path, administrator: getuid())
        #expect(linked.read() == .off(reason: "\(link.path) is a symbolic link"))
    }

    @Test func theMachineSettingIsRootsFileInEtc() {
        #expect(SecureEnclaveSetting.system.path == "/etc/keychain/secure-enclave")
        #expect(SecureEnclaveSetting.system.administrator == 0)
    }

    /// The reason a setting file is ignored, nil when it counts or says "none"; the file stays alive meanwhile.
    private func unknownReason(_ file: SoftwareEnclaveSettingFile) -> String? {
        guard case .off(let reason) = file.read() else { return nil }
        return reason
    }

    // MARK: Keys

    @Test func softwareKeysSignAndCryptoKitVerifies() throws {
        try withSoftwareEnclave {
            try withEnclaveKeychain { _, _ in
                let key = try SecureEnclave.P256.Signing.PrivateKey()
                #expect(key.isHardwareBacked == false)
                #expect(key.publicKey.compactRepresentation != nil)
                let signature = try key.signature(for: message)
                #expect(key.publicKey.isValidSignature(signature, for: message))
                #expect(!key.publicKey.isValidSignature(signature, for: Data("other".utf8)))
                let digest = SHA256.hash(data: message)
                #expect(key.publicKey.isValidSignature(try key.signature(for: digest), for: digest))
                // Other digests too, as Apple's enclave signs them (swift-certificates signs with SHA-384 and
                // SHA-512 digests): CryptoKit's verifier of the same digest accepts them.
                let longer = SHA384.hash(data: message)
                #expect(key.publicKey.isValidSignature(try key.signature(for: longer), for: longer))
                let shorter = Insecure.SHA1.hash(data: message)
                #expect(key.publicKey.isValidSignature(try key.signature(for: shorter), for: shorter))
                #expect(!key.publicKey.isValidSignature(try key.signature(for: longer), for: SHA384.hash(data: Data())))
                // The stored form holds no private scalar in the clear.
                let stored = key.dataRepresentation
                #expect(Array(stored.prefix(4)) == Array("KSWE".utf8))
                let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored)
                #expect(restored.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
                #expect(restored.dataRepresentation == stored)
                #expect(key.publicKey.isValidSignature(try restored.signature(for: message), for: message))
            }
        }
    }

    @Test func softwareKeysAgreeWithSoftwareP256Keys() throws {
        try withSoftwareEnclave {
            try withEnclaveKeychain { _, _ in
                let key = try SecureEnclave.P256.KeyAgreement.PrivateKey(compactRepresentable: false)
                #expect(key.isHardwareBacked == false)
                let peer = P256.KeyAgreement.PrivateKey()
                let ours = try key.sharedSecretFromKeyAgreement(with: peer.publicKey)
                let theirs = try peer.sharedSecretFromKeyAgreement(with: key.publicKey)
                #expect(ours == theirs)
                let restored = try SecureEnclave.P256.KeyAgreement.PrivateKey(
                    dataRepresentation: key.dataRepresentation)
                #expect(try restored.sharedSecretFromKeyAgreement(with: peer.publicKey) == theirs)
                // A signing key's stored form is not a key-agreement key, and the other way round.
                #expect(
                    Self.status {
                        _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
                    } == -50)
            }
        }
    }

    /// An enclave key-agreement key is a `DiffieHellmanKeyAgreement` and an HPKE recipient, as on Apple's systems:
    /// generic code takes it, and a message sealed to its public key opens with it.
    @Test func anEnclaveKeyIsAnHPKERecipient() throws {
        func agree<K: DiffieHellmanKeyAgreement>(_ key: K, with peer: K.PublicKey) throws -> SharedSecret {
            try key.sharedSecretFromKeyAgreement(with: peer)
        }
        try withSoftwareEnclave {
            try withEnclaveKeychain { _, _ in
                let key = try SecureEnclave.P256.KeyAgreement.PrivateKey()
                let peer = P256.KeyAgreement.PrivateKey()
                #expect(try agree(key, with: peer.publicKey) == peer.sharedSecretFromKeyAgreement(with: key.publicKey))
                let suite = HPKE.Ciphersuite.P256_SHA256_AES_GCM_256
                var sender = try HPKE.Sender(recipientKey: key.publicKey, ciphersuite: suite, info: Data("v1".utf8))
                let sealed = try sender.seal(Data("to the enclave".utf8))
                var recipient = try HPKE.Recipient(
                    privateKey: key, ciphersuite: suite, info: Data("v1".utf8), encapsulatedKey: sender.encapsulatedKey)
                #expect(try recipient.open(sealed) == Data("to the enclave".utf8))
            }
        }
    }

    @Test func theStoredFormRestoresAfterTheHomeIsReopened() throws {
        try withSoftwareEnclave {
            let home = ReopenableKeychainHome()
            let (stored, publicKey) = try home.withOpen { _ in
                let key = try SecureEnclave.P256.Signing.PrivateKey()
                return (key.dataRepresentation, key.publicKey)
            }
            try home.withOpen { _ in
                let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored)
                #expect(publicKey.isValidSignature(try key.signature(for: message), for: message))
            }
        }
    }

    @Test func anotherHomesDeviceKeyDoesNotOpenTheKey() throws {
        try withSoftwareEnclave {
            let stored = try ReopenableKeychainHome().withOpen { _ in
                try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation
            }
            try ReopenableKeychainHome().withOpen { _ in
                #expect(
                    Self.status { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored) }
                        == -26275)
            }
        }
    }

    @Test func aTamperedStoredFormDoesNotOpen() throws {
        try withSoftwareEnclave {
            try withEnclaveKeychain { _, _ in
                let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: Self.access(.devicePasscode))
                let stored = Array(key.dataRepresentation)
                // The header is magic (4), version, use, point (65), then the class: its length and "aku".
                let classOffset = 4 + 1 + 1 + 65
                #expect(stored[classOffset] == 3)
                #expect(Array(stored[(classOffset + 1)...(classOffset + 3)]) == Array("aku".utf8))
                let flagsEnd = classOffset + 4 + 8
                var unconstrained = stored
                unconstrained.replaceSubrange((flagsEnd - 8)..<flagsEnd, with: [0, 0, 0, 0, 0x40, 0, 0, 0])
                var lastByte = stored
                lastByte[lastByte.count - 1] ^= 1
                var sealedAuthorization = stored
                sealedAuthorization[flagsEnd + 4 + 8] ^= 1
                var point = stored
                point[6 + 64] ^= 1  // the y coordinate's last byte: no longer on the curve
                for altered in [unconstrained, lastByte, sealedAuthorization] {
                    #expect(
                        Self.status {
                            _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(altered))
                        } == -26275)
                }
                #expect(
                    Self.status { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(point)) }
                        == -50)
                for truncated in [Array(stored.prefix(3)), Array(stored.prefix(40)), Array(stored.dropLast(20)), []] {
                    #expect(
                        Self.status {
                            _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(truncated))
                        } != nil)
                }
                var newer = stored
                newer[4] = 2
                #expect(
                    Self.status { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(newer)) }
                        == -50)
            }
        }
    }

    @Test func aTPMsStoredFormDoesNotLoadInTheSoftwareEnclave() throws {
        try withSoftwareEnclave {
            try withEnclaveKeychain { _, _ in
                // The TPM's envelope ("KTPA") and a bare TPM blob ("KTPM"), whatever follows.
                let envelope = Data("KTPA".utf8) + Data([0, 0, 0, 4]) + Data("KTPM".utf8) + Data(count: 40)
                let bare = Data("KTPM".utf8) + Data([1]) + Data(count: 60)
                for stored in [envelope, bare, P256.Signing.PrivateKey().rawRepresentation] {
                    #expect(
                        Self.status { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored) }
                            == -50)
                }
            }
        }
    }

    @Test(.enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
    func softwareAndTPMKeysDoNotLoadInEachOther() throws {
        try withEnclaveKeychain { _, _ in
            let software = try withSoftwareEnclave { try SecureEnclave.P256.Signing.PrivateKey() }
            let tpm = try SoftwareTPM()
            try SecureEnclaveBacking.$tctiOverride.withValue(tpm.tcti) {
                // With a TPM answering, the TPM is the enclave even where the software one is opted in.
                let optIn = try SoftwareEnclaveSettingFile()
                try SecureEnclaveSetting.$override.withValue(optIn.setting) {
                    #expect(SecureEnclave.backing == .tpm(tcti: tpm.tcti))
                    #expect(SecureEnclave.backing.description == "TPM 2.0 (\(tpm.tcti))")
                    let hardware = try SecureEnclave.P256.Signing.PrivateKey()
                    #expect(hardware.isHardwareBacked)
                    #expect(
                        Self.status {
                            _ = try SecureEnclave.P256.Signing.PrivateKey(
                                dataRepresentation: software.dataRepresentation)
                        } == -50)
                    let stored = hardware.dataRepresentation
                    try withSoftwareEnclave {
                        #expect(
                            Self.status {
                                _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored)
                            } == -50)
                    }
                    withExtendedLifetime(optIn) {}
                }
            }
        }
    }

    @Test func theKernelsResourceManagerIsNamedByItsDevice() {
        #expect(SecureEnclaveBacking.tpm(tcti: "device:/dev/tpmrm0").description == "TPM 2.0 (/dev/tpmrm0)")
        #expect(SecureEnclaveBacking.tpm(tcti: "device:/dev/tpmrm0").isHardwareBacked)
    }

    // MARK: Access control, as in the TPM

    @Test func aBiometryKeyAsksBeforeEachUseAndDiesWithAnEnrollmentChange() throws {
        try withSoftwareEnclave {
            try withEnclaveKeychain { keychain, _ in
                let biometry = keychain.authenticators.biometry
                let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: Self.access(.biometryCurrentSet))
                let any = try SecureEnclave.P256.KeyAgreement.PrivateKey(accessControl: Self.access(.biometryAny))
                try biometry.script(.match)
                #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
                try biometry.script(.cancel)
                #expect(Self.status { _ = try key.signature(for: message) } == -128)
                try biometry.script(.noMatch)
                #expect(Self.status { _ = try key.signature(for: message) } == -25293)
                #expect(Self.status { _ = try key.signature(for: message) } == -128)  // nobody at the prompt
                try biometry.script(.match)
                let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
                #expect(key.publicKey.isValidSignature(try restored.signature(for: message), for: message))
                #expect(try biometry.status().script.isEmpty)

                let peer = P256.KeyAgreement.PrivateKey()
                try biometry.changeEnrollment()
                try biometry.script(.match, .match, .match)
                #expect(Self.status { _ = try key.signature(for: message) } == -25293)
                #expect(Self.status { _ = try restored.signature(for: message) } == -25293)
                // A biometryAny key survives the change.
                #expect(
                    try any.sharedSecretFromKeyAgreement(with: peer.publicKey)
                        == peer.sharedSecretFromKeyAgreement(with: any.publicKey))
            }
        }
    }

    @Test func userPresenceAsksForThePasscodeWithNothingEnrolled() throws {
        try withSoftwareEnclave {
            try withEnclaveKeychain(enrolled: false) { keychain, _ in
                let prompt = keychain.authenticators.passcodePrompt
                let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: Self.access(.userPresence))
                prompt.enter("1234")
                #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
                prompt.enter("9999")
                #expect(Self.status { _ = try key.signature(for: message) } == -25293)
                prompt.cancel()
                #expect(Self.status { _ = try key.signature(for: message) } == -128)
            }
        }
    }

    @Test func anEvaluatedContextIsReusedWithinItsDuration() async throws {
        try await withSoftwareEnclave {
            try await withEnclaveKeychain { keychain, clock in
                let context = LAContext()
                context.touchIDAuthenticationAllowableReuseDuration = 10
                try keychain.authenticators.biometry.script(.match)
                #expect(
                    try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "t"))
                let key = try SecureEnclave.P256.Signing.PrivateKey(
                    accessControl: Self.access(.biometryCurrentSet), authenticationContext: context)
                #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
                let bare = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
                #expect(Self.status { _ = try bare.signature(for: message) } == -128)
                clock.advance(by: 11)
                context.interactionNotAllowed = true
                #expect(Self.status { _ = try key.signature(for: message) } == -25308)
            }
        }
    }

    @Test func aLockedKeychainRefusesWhenUnlockedKeys() throws {
        try withSoftwareEnclave {
            try withEnclaveKeychain { keychain, _ in
                let key = try SecureEnclave.P256.Signing.PrivateKey()
                #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
                try keychain.setGracePeriod(0)
                try keychain.lock()
                #expect(Self.status { _ = try key.signature(for: message) } == -25308)
                #expect(Self.status { _ = try SecureEnclave.P256.Signing.PrivateKey() } == -25308)
                try keychain.unlock(passcode: Secret(Array("1234".utf8)))
                #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            }
        }
    }
}
