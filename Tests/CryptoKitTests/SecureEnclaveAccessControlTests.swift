import Foundation
import KeychainCore
import KeychainTestSupport
import LocalAuthentication
import Security
import Testing

@testable import CryptoKit
@testable import EnclaveKeys
@testable import TPMEnclave

/// SecureEnclave keys whose access control asks for the user (the simulated sensor and scripted passcode
/// prompts) or for an unlocked keychain, in a software TPM.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
struct CryptoKitSecureEnclaveAccessControlTests {
    let message = Data("sign me".utf8)

    static func access(
        _ flags: SecAccessControlCreateFlags, _ protection: CFString = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
    ) -> SecAccessControl {
        SecAccessControlCreateWithFlags(nil, protection, [.privateKeyUsage, flags], nil)!
    }

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

    /// Runs `body` with a fresh swtpm and a fresh keychain.
    func inEnclave(
        passcode: String? = "1234", enrolled: Bool = true, _ body: (Keychain, TestClock) async throws -> Void
    ) async throws {
        let tpm = try SoftwareTPM()
        try await SecureEnclaveBacking.$tctiOverride.withValue(tpm.tcti) {
            try await withEnclaveKeychain(passcode: passcode, enrolled: enrolled, body)
        }
    }

    @Test func aBiometryKeyAsksBeforeEachSignature() async throws {
        try await inEnclave { keychain, _ in
            let biometry = keychain.authenticators.biometry
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: Self.access(.biometryCurrentSet))
            try biometry.script(.match)
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            // The match is used up: the next signature asks again.
            try biometry.script(.cancel)
            #expect(Self.status { _ = try key.signature(for: message) } == -128)
            try biometry.script(.noMatch)
            #expect(Self.status { _ = try key.signature(for: message) } == -25293)
            #expect(Self.status { _ = try key.signature(for: message) } == -128)  // nobody at the prompt
            try biometry.script(.match)
            let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(key.publicKey.isValidSignature(try restored.signature(for: message), for: message))
            #expect(try biometry.status().script.isEmpty)
        }
    }

    @Test func theTPMRefusesTheKeyWithoutItsAuthorization() async throws {
        try await inEnclave { keychain, _ in
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: Self.access(.biometryAny))
            let stored = Array(key.dataRepresentation)
            let tpmLength = stored[4..<8].reduce(0) { $0 << 8 | Int($1) }
            let blob = try TPMKeyBlob(serialized: Array(stored[8..<(8 + tpmLength)]), signing: true)
            let connection = try SecureEnclaveBackends.connection()
            let digest = Array(SHA256.hash(data: message))
            #expect(throws: TPMError.self) { try connection.sign(digest: digest, with: blob) }
            // Taken out of its envelope and given to the TPM as a plain key, it is still refused.
            #expect(throws: CryptoKitError.self) {
                let plain = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(blob.serialized))
                _ = try plain.signature(for: message)
            }
        }
    }

    @Test func keysStoredBeforeAccessControlBoundStillSign() async throws {
        try await inEnclave { _, _ in
            // The earlier stored form: the TPM blob alone, for a key with an empty auth value.
            let connection = try SecureEnclaveBackends.connection()
            let blob = try connection.createKey(signing: true)
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(blob.serialized))
            #expect(signs(key, message))
            #expect(key.dataRepresentation == Data(blob.serialized))
        }
    }

    @Test func anEvaluatedContextIsReusedWithinItsDuration() async throws {
        try await inEnclave { keychain, clock in
            let biometry = keychain.authenticators.biometry
            let context = LAContext()
            context.touchIDAuthenticationAllowableReuseDuration = 10
            try biometry.script(.match)
            #expect(try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "t"))
            let key = try SecureEnclave.P256.Signing.PrivateKey(
                accessControl: Self.access(.biometryCurrentSet), authenticationContext: context)
            // No reaction queued: these signatures are made without a prompt.
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            let restored = try SecureEnclave.P256.Signing.PrivateKey(
                dataRepresentation: key.dataRepresentation, authenticationContext: context)
            #expect(key.publicKey.isValidSignature(try restored.signature(for: message), for: message))
            // Without the context, the same key asks (and nobody answers).
            let bare = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(Self.status { _ = try bare.signature(for: message) } == -128)
            // After the reuse duration, the context's key asks again.
            clock.advance(by: 11)
            try biometry.script(.cancel)
            #expect(Self.status { _ = try key.signature(for: message) } == -128)
            context.interactionNotAllowed = true
            #expect(Self.status { _ = try key.signature(for: message) } == -25308)
        }
    }

    @Test func anEnrollmentChangeMakesACurrentSetKeyUnusableForGood() async throws {
        try await inEnclave { keychain, _ in
            let biometry = keychain.authenticators.biometry
            let current = try SecureEnclave.P256.Signing.PrivateKey(accessControl: Self.access(.biometryCurrentSet))
            let any = try SecureEnclave.P256.KeyAgreement.PrivateKey(accessControl: Self.access(.biometryAny))
            let peer = P256.KeyAgreement.PrivateKey()
            try biometry.script(.match, .match)
            _ = try current.signature(for: message)
            _ = try any.sharedSecretFromKeyAgreement(with: peer.publicKey)
            try biometry.changeEnrollment()
            try biometry.script(.match, .match, .match)
            #expect(Self.status { _ = try current.signature(for: message) } == -25293)
            let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: current.dataRepresentation)
            #expect(Self.status { _ = try restored.signature(for: message) } == -25293)
            // A biometryAny key survives the change.
            #expect(
                try any.sharedSecretFromKeyAgreement(with: peer.publicKey)
                    == peer.sharedSecretFromKeyAgreement(with: any.publicKey))
        }
    }

    @Test func passcodeAndUserPresenceKeysAskForThePasscode() async throws {
        try await inEnclave(enrolled: false) { keychain, _ in
            let prompt = keychain.authenticators.passcodePrompt
            let passcode = try SecureEnclave.P256.Signing.PrivateKey(accessControl: Self.access(.devicePasscode))
            prompt.enter("1234")
            #expect(signs(passcode, message))
            prompt.enter("9999")
            #expect(Self.status { _ = try passcode.signature(for: message) } == -25293)
            prompt.cancel()
            #expect(Self.status { _ = try passcode.signature(for: message) } == -128)
            // Nothing enrolled: user presence is the passcode.
            let presence = try SecureEnclave.P256.Signing.PrivateKey(accessControl: Self.access(.userPresence))
            prompt.enter("1234")
            #expect(signs(presence, message))
        }
    }

    @Test func orAndAndCombineTheFactors() async throws {
        try await inEnclave { keychain, _ in
            let biometry = keychain.authenticators.biometry
            let prompt = keychain.authenticators.passcodePrompt
            let either = try SecureEnclave.P256.Signing.PrivateKey(
                accessControl: Self.access([.biometryCurrentSet, .or, .devicePasscode]))
            try biometry.script(.match)
            #expect(signs(either, message))
            try biometry.script(.fallback)
            prompt.enter("1234")
            #expect(signs(either, message))
            let both = try SecureEnclave.P256.Signing.PrivateKey(
                accessControl: Self.access([.biometryAny, .and, .devicePasscode]))
            try biometry.script(.match)
            prompt.enter("1234")
            #expect(signs(both, message))
            try biometry.script(.match)
            prompt.cancel()
            #expect(Self.status { _ = try both.signature(for: message) } == -128)
        }
    }

    @Test func anApplicationPasswordKeyNeedsThePasswordOnItsContext() async throws {
        try await inEnclave { _, _ in
            let context = LAContext()
            context.setCredential(Data("app secret".utf8), type: .applicationPassword)
            let key = try SecureEnclave.P256.Signing.PrivateKey(
                accessControl: Self.access(.applicationPassword), authenticationContext: context)
            #expect(signs(key, message))
            let bare = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(Self.status { _ = try bare.signature(for: message) } == -25293)
            let wrong = LAContext()
            wrong.setCredential(Data("guess".utf8), type: .applicationPassword)
            let guessed = try SecureEnclave.P256.Signing.PrivateKey(
                dataRepresentation: key.dataRepresentation, authenticationContext: wrong)
            #expect(Self.status { _ = try guessed.signature(for: message) } == -25293)
        }
    }

    @Test func anAlteredAccessControlInTheStoredFormDoesNotOpen() async throws {
        try await inEnclave { _, _ in
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: Self.access(.devicePasscode))
            var stored = Array(key.dataRepresentation)
            let tpmLength = stored[4..<8].reduce(0) { $0 << 8 | Int($1) }
            let classOffset = 8 + tpmLength
            #expect(stored[classOffset] == 3)
            #expect(Array(stored[(classOffset + 1)...(classOffset + 3)]) == Array("aku".utf8))
            // The same class without the passcode constraint: the seal names the access control it was made for.
            let flagsEnd = classOffset + 4 + 8
            stored.replaceSubrange((flagsEnd - 8)..<flagsEnd, with: [0, 0, 0, 0, 0x40, 0, 0, 0])
            let altered = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(stored))
            #expect(Self.status { _ = try altered.signature(for: message) } == -26275)  // errSecDecode
            // An always-available class instead of WhenUnlocked: its class key does not open the seal either.
            var always = Array(key.dataRepresentation)
            always.replaceSubrange((classOffset + 1)...(classOffset + 3), with: Array("dku".utf8))
            let moved = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(always))
            #expect(Self.status { _ = try moved.signature(for: message) } == -26275)
        }
    }

    @Test func aLockedKeychainRefusesWhenUnlockedKeys() async throws {
        try await inEnclave { keychain, _ in
            let key = try SecureEnclave.P256.Signing.PrivateKey()  // WhenUnlockedThisDeviceOnly
            let agreement = try SecureEnclave.P256.KeyAgreement.PrivateKey(
                accessControl: SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, .privateKeyUsage, nil)!)
            #expect(signs(key, message))
            try keychain.setGracePeriod(0)
            try keychain.lock()
            #expect(Self.status { _ = try key.signature(for: message) } == -25308)
            #expect(Self.status { _ = try SecureEnclave.P256.Signing.PrivateKey() } == -25308)
            // AfterFirstUnlock stays usable while locked, as on a device.
            _ = try agreement.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PrivateKey().publicKey)
            try keychain.unlock(passcode: Secret(Array("1234".utf8)))
            #expect(signs(key, message))
        }
    }

    @Test func aPasscodeClassWithoutAPasscodeFails() async throws {
        try await inEnclave(passcode: nil, enrolled: false) { _, _ in
            let plain = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .privateKeyUsage, nil)!
            #expect(Self.status { _ = try SecureEnclave.P256.Signing.PrivateKey(accessControl: plain) } == -25293)
            // Biometry and the passcode need a passcode too.
            #expect(
                Self.status {
                    _ = try SecureEnclave.P256.Signing.PrivateKey(accessControl: Self.access(.devicePasscode))
                } == -25293)
            // Constraints on the Always classes are refused, as the keychain refuses them.
            #expect(
                Self.status {
                    _ = try SecureEnclave.P256.Signing.PrivateKey(
                        accessControl: Self.access(.userPresence, kSecAttrAccessibleAlwaysThisDeviceOnly))
                } == -50)
        }
    }

    private func signs(_ key: SecureEnclave.P256.Signing.PrivateKey, _ message: Data) -> Bool {
        do {
            return key.publicKey.isValidSignature(try key.signature(for: message), for: message)
        } catch {
            Issue.record("signing failed: \(error)")
            return false
        }
    }
}
