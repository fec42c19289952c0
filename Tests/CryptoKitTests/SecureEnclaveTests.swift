import Foundation
import KeychainCore
import KeychainTestSupport
import LocalAuthentication
import Security
import Testing

@testable import CryptoKit

// keychain-lint:ignore-file KL603 -- these tests create keys in the software TPM they start (SoftwareTPM)

/// Without a TPM, SecureEnclave says so and its keys fail; nothing pretends.
@Suite struct CryptoKitSecureEnclaveTests {
    static var machineHasTPM: Bool {
        ProcessInfo.processInfo.environment["KEYCHAIN_TPM_TCTI"] != nil
            || FileManager.default.fileExists(atPath: "/dev/tpmrm0")
    }

    /// A setting file that does not exist: these tests see the machine without the software enclave's opt-in.
    static let noOptIn = SecureEnclaveSetting(path: "/nonexistent/keychain/secure-enclave", administrator: 0)

    @Test(.disabled(if: machineHasTPM, "this machine has a TPM")) func isNotAvailableWithoutATPM() {
        SecureEnclaveSetting.$override.withValue(Self.noOptIn) {
            #expect(SecureEnclave.isAvailable == false)
        }
    }

    @Test(.disabled(if: machineHasTPM, "this machine has a TPM")) func guardedApplicationCodeSkipsTheEnclave() throws {
        try SecureEnclaveSetting.$override.withValue(Self.noOptIn) { () throws in
            #expect(try signInSecureEnclave(Data("payload".utf8)) == nil)
            #expect(try agreeInSecureEnclave(with: P256.KeyAgreement.PrivateKey().publicKey) == nil)
        }
    }

    @Test(.disabled(if: machineHasTPM, "this machine has a TPM")) func keysCannotBeCreatedOrRestored() {
        SecureEnclaveSetting.$override.withValue(Self.noOptIn) { Self.failWithoutEnclave() }
    }

    private static func failWithoutEnclave() {
        let unavailable = CryptoKitError.underlyingCoreCryptoError(error: -4)
        #expect(throws: unavailable) { try SecureEnclave.P256.Signing.PrivateKey() }
        #expect(throws: unavailable) { try SecureEnclave.P256.KeyAgreement.PrivateKey() }
        let blob = P256.Signing.PrivateKey().rawRepresentation
        #expect(throws: unavailable) { try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob) }
        #expect(throws: unavailable) {
            try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: blob, authenticationContext: nil)
        }
    }

    @Test func aTPMThatDoesNotAnswerIsNotAvailable() {
        SecureEnclaveBacking.$tctiOverride.withValue("swtpm:host=127.0.0.1,port=1") {
            SecureEnclaveSetting.$override.withValue(Self.noOptIn) { Self.unreachableTPMIsNotAvailable() }
        }
    }

    private static func unreachableTPMIsNotAvailable() {
        #expect(SecureEnclave.isAvailable == false)
        #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -4)) {
            try SecureEnclave.P256.Signing.PrivateKey()
        }
    }
}

/// SecureEnclave keys in a software TPM 2.0 (`swtpm`) started by the tests.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
struct CryptoKitSecureEnclaveTPMTests {
    let message = Data("sign me".utf8)

    @Test func signsInsideTheTPMAndOpenSSLVerifies() throws {
        try withEnclaveKeychain { _, _ in
            let tpm = try SoftwareTPM()
            try SecureEnclaveBacking.$tctiOverride.withValue(tpm.tcti) {
                #expect(SecureEnclave.isAvailable)
                let key = try SecureEnclave.P256.Signing.PrivateKey()
                #expect(key.publicKey.compactRepresentation != nil)
                let signature = try key.signature(for: message)
                #expect(key.publicKey.isValidSignature(signature, for: message))
                #expect(!key.publicKey.isValidSignature(signature, for: Data("other".utf8)))

                let openssl = try OpenSSLCommand()
                let messagePath = try openssl.write("message", message)
                let publicPath = try openssl.write("public.pem", key.publicKey.pemRepresentation + "\n")
                let signaturePath = try openssl.write("signature.der", signature.derRepresentation)
                let verified = try openssl.run([
                    "dgst", "-sha256", "-verify", publicPath, "-signature", signaturePath, messagePath,
                ])
                #expect(String(decoding: verified, as: UTF8.self).contains("Verified OK"))

                // The stored form restores the same key, which signs again.
                let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
                #expect(restored.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
                #expect(key.publicKey.isValidSignature(try restored.signature(for: message), for: message))
            }
        }
    }

    @Test func theSeedsSecureEnclaveCodeRunsAgainstTheTPM() throws {
        try withEnclaveKeychain { keychain, _ in
            let tpm = try SoftwareTPM()
            try SecureEnclaveBacking.$tctiOverride.withValue(tpm.tcti) {
                // The seed's key asks for the current biometry before it signs (and only then).
                try keychain.authenticators.biometry.script(.match)
                let signed = try signInSecureEnclave(message)
                #expect(signed?.isValid == true && signed?.restoredMatches == true)
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -128)) {
                    try signInSecureEnclave(message)  // nobody at the prompt
                }
                let plain = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .privateKeyUsage, nil)!
                let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: plain)
                #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
                let userPresence = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .userPresence], nil)!
                let agreement = try SecureEnclave.P256.KeyAgreement.PrivateKey(accessControl: userPresence)
                let peer = P256.KeyAgreement.PrivateKey()
                try keychain.authenticators.biometry.script(.match)
                #expect(
                    try agreement.sharedSecretFromKeyAgreement(with: peer.publicKey)
                        == peer.sharedSecretFromKeyAgreement(with: agreement.publicKey))
            }
        }
    }

    @Test func keyAgreementInsideTheTPMMatchesSoftwareAndOpenSSL() throws {
        try withEnclaveKeychain { _, _ in
            let tpm = try SoftwareTPM()
            try SecureEnclaveBacking.$tctiOverride.withValue(tpm.tcti) {
                let enclaveKey = try SecureEnclave.P256.KeyAgreement.PrivateKey()
                let softwareKey = P256.KeyAgreement.PrivateKey()
                let inside = try enclaveKey.sharedSecretFromKeyAgreement(with: softwareKey.publicKey)
                let outside = try softwareKey.sharedSecretFromKeyAgreement(with: enclaveKey.publicKey)
                #expect(inside == outside)
                // openssl, holding the software key, derives the same secret with the enclave key's public key.
                let openssl = try OpenSSLCommand()
                try openssl.write("software.pem", softwareKey.pemRepresentation + "\n")
                try openssl.write("enclave.pem", enclaveKey.publicKey.pemRepresentation + "\n")
                let derived = try openssl.run([
                    "pkeyutl", "-derive", "-inkey", "software.pem", "-peerkey", "enclave.pem",
                ])
                #expect(derived == inside.withUnsafeBytes { Data($0) })
                let restored = try SecureEnclave.P256.KeyAgreement.PrivateKey(
                    dataRepresentation: enclaveKey.dataRepresentation)
                #expect(try restored.sharedSecretFromKeyAgreement(with: softwareKey.publicKey) == inside)
            }
        }
    }

    /// `dataRepresentation` as a release before the storage key's name wrote it: the TPM blob inside the envelope
    /// (`"KTPA" ‖ u32 length ‖ blob ‖ …`) without the name and without the bit of its use byte that announces it.
    static func earlierForm(of stored: Data) throws -> Data {
        var bytes = Array(stored)
        let length = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        let use = 8 + 4
        try #require(Array(bytes[8..<12]) == Array("KTPM".utf8) && bytes[use] & 0x40 != 0)
        bytes[use] &= ~0x40
        let nameLength = 2 + 34  // TPM2B_NAME of a SHA-256 name, at the blob's end
        let blobEnd = 8 + length
        try #require(Array(bytes[(blobEnd - nameLength)..<(blobEnd - nameLength + 2)]) == [0, 34])
        bytes.removeSubrange((blobEnd - nameLength)..<blobEnd)
        let shorter = length - nameLength
        bytes.replaceSubrange(4..<8, with: (0..<4).map { UInt8(truncatingIfNeeded: shorter >> (8 * (3 - $0))) })
        return Data(bytes)
    }

    @Test func blobsFailOnAnotherTPMAndAfterAReset() throws {
        try withEnclaveKeychain { _, _ in
            let first = try SoftwareTPM()
            let blob = try SecureEnclaveBacking.$tctiOverride.withValue(first.tcti) {
                try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation
            }
            let earlier = try Self.earlierForm(of: blob)
            // A second TPM (other seeds) answers with another storage key than the one the blob names: refused
            // before the key is loaded (nothing is sent under a storage key that may be an impostor's), errSecDecode:
            // the key is lost here, no crash. The blob of an earlier release names no storage key: the TPM refuses
            // it, errSecDecode as well (TPM_RC_INTEGRITY in the reason).
            let second = try SoftwareTPM()
            SecureEnclaveBacking.$tctiOverride.withValue(second.tcti) {
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -26275)) {
                    try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
                }
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -26275)) {
                    try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: earlier)
                }
            }
            // Restarting the first TPM over its state keeps the key; a fresh state (a reset) loses it.
            first.stop()
            try first.start()
            try SecureEnclaveBacking.$tctiOverride.withValue(first.tcti) {
                let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
                #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            }
            first.stop()
            try FileManager.default.removeItem(at: first.stateDirectory)
            try FileManager.default.createDirectory(at: first.stateDirectory, withIntermediateDirectories: true)
            try first.start()
            SecureEnclaveBacking.$tctiOverride.withValue(first.tcti) {
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -26275)) {
                    try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
                }
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -26275)) {
                    try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: earlier)
                }
            }
            // Bytes that are no blob at all: errSecParam.
            SecureEnclaveBacking.$tctiOverride.withValue(first.tcti) {
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -50)) {
                    try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data("not a key".utf8))
                }
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -50)) {
                    try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: blob)  // a signing key's blob
                }
            }
        }
    }
}
