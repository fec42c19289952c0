import Foundation
import KeychainCore
import KeychainTestSupport
import Security
import Testing

/// `SecKeyCreateDecryptedData` with a Secure Enclave private key: ECIES whose ECDH step runs in the enclave
/// (software enclave, and a TPM under `swtpm`), and whose access control asks before each decryption.
@Suite(.serialized)
struct SecKeyEnclaveECIESTests {
    let plaintext = Data("a secret only the enclave's key opens".utf8)

    static let algorithms: [SecKeyAlgorithm] = [
        .eciesEncryptionStandardX963SHA256AESGCM, .eciesEncryptionCofactorX963SHA256AESGCM,
        .eciesEncryptionStandardVariableIVX963SHA256AESGCM, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM,
        .eciesEncryptionStandardX963SHA384AESGCM,
    ]

    static func encrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) throws -> Data {
        let publicKey = try #require(SecKeyCopyPublicKey(key))
        var error: Unmanaged<CFError>?
        let blob = SecKeyCreateEncryptedData(publicKey, algorithm, data as CFData, &error) as Data?
        #expect(error == nil)
        return try #require(blob)
    }

    static func decrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ blob: Data) -> (plaintext: Data?, status: Int?) {
        var error: Unmanaged<CFError>?
        let plaintext = SecKeyCreateDecryptedData(key, algorithm, blob as CFData, &error) as Data?
        return (plaintext, error.map { CFErrorGetCode($0.takeRetainedValue()) })
    }

    @Test func aBlobForTheEnclaveKeyDecryptsInTheSoftwareEnclave() async throws {
        try await SecKeyEnclaveTests().inSoftwareEnclave { _, _ in
            let key = try #require(SecKeyEnclaveTests.create(SecKeyEnclaveTests.parameters()).key)
            for algorithm in Self.algorithms {
                #expect(SecKeyIsAlgorithmSupported(key, .decrypt, algorithm))
                let blob = try Self.encrypt(key, algorithm, plaintext)
                let (opened, status) = Self.decrypt(key, algorithm, blob)
                #expect(status == nil, "\(algorithm.rawValue)")
                #expect(opened == plaintext, "\(algorithm.rawValue)")
            }
        }
    }

    @Test func anAlteredOrForeignBlobIsRefusedWithErrSecParam() async throws {
        try await SecKeyEnclaveTests().inSoftwareEnclave { _, _ in
            let key = try #require(SecKeyEnclaveTests.create(SecKeyEnclaveTests.parameters()).key)
            let algorithm = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM
            var blob = try Self.encrypt(key, algorithm, plaintext)
            blob[blob.count - 1] ^= 0x01
            #expect(Self.decrypt(key, algorithm, blob).status == Int(errSecParam))
            // A blob for another key: the enclave agrees on another secret, and AES-GCM refuses it.
            let other = try #require(SecKeyEnclaveTests.create(SecKeyEnclaveTests.parameters()).key)
            let foreign = try Self.encrypt(other, algorithm, plaintext)
            #expect(Self.decrypt(key, algorithm, foreign).status == Int(errSecParam))
            // Too short to hold the ephemeral key, or an ephemeral key off the curve.
            #expect(Self.decrypt(key, algorithm, Data([4, 1, 2])).status == Int(errSecParam))
            var offCurve = try Self.encrypt(key, algorithm, plaintext)
            offCurve[5] ^= 0x40
            #expect(Self.decrypt(key, algorithm, offCurve).status == Int(errSecParam))
            // Its public key encrypts but cannot decrypt; RSA algorithms do not fit.
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            #expect(Self.decrypt(publicKey, algorithm, blob).status == Int(errSecParam))
            #expect(Self.decrypt(key, .rsaEncryptionOAEPSHA256, blob).status == Int(errSecParam))
        }
    }

    @Test func accessControlAsksBeforeEachDecryption() async throws {
        try await SecKeyEnclaveTests().inSoftwareEnclave { keychain, _ in
            let biometry = keychain.authenticators.biometry
            let parameters = SecKeyEnclaveTests.parameters(flags: [.privateKeyUsage, .biometryCurrentSet])
            let key = try #require(SecKeyEnclaveTests.create(parameters).key)
            let algorithm = SecKeyAlgorithm.eciesEncryptionStandardX963SHA256AESGCM
            // Encrypting uses the public key only: no prompt.
            let blob = try Self.encrypt(key, algorithm, plaintext)
            try biometry.script(.cancel)
            #expect(Self.decrypt(key, algorithm, blob).status == Int(errSecUserCanceled))
            try biometry.script(.noMatch)
            #expect(Self.decrypt(key, algorithm, blob).status == Int(errSecAuthFailed))
            try biometry.script(.match)
            #expect(Self.decrypt(key, algorithm, blob).plaintext == plaintext)
            // The next decryption asks again.
            try biometry.script(.cancel)
            #expect(Self.decrypt(key, algorithm, blob).status == Int(errSecUserCanceled))
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/swtpm"), "swtpm is not installed"))
    func aBlobForATPMKeyDecrypts() async throws {
        let tpm = try SoftwareTPM()
        try await SecKeyEnclaveTests().withEnclaveTestKeychain {
            try await SecureEnclaveBacking.$tctiOverride.withValue(tpm.tcti) {
                let key = try #require(SecKeyEnclaveTests.create(SecKeyEnclaveTests.parameters()).key)
                for algorithm in [
                    SecKeyAlgorithm.eciesEncryptionCofactorX963SHA256AESGCM,
                    .eciesEncryptionStandardVariableIVX963SHA256AESGCM,
                ] {
                    let blob = try Self.encrypt(key, algorithm, plaintext)
                    let (opened, status) = Self.decrypt(key, algorithm, blob)
                    #expect(status == nil)
                    #expect(opened == plaintext)
                }
            }
        }
    }
}
