import CryptoKit
import EnclaveKeys
import Foundation
import KeychainCore
import KeychainRequests
import KeychainTestSupport
import LocalAuthentication
import Security
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `SecKeyCreateRandomKey` with `kSecAttrTokenIDSecureEnclave`, in the administrator's software enclave (opted in
/// by a setting file of the test's own, no TPM) and, where `swtpm` is installed, in a software TPM.
@Suite(.serialized)
struct SecKeyEnclaveTests {
    let message = Data("sign me in the enclave".utf8)

    static func parameters(
        tag: String? = nil, flags: SecAccessControlCreateFlags = .privateKeyUsage, extra: [String: Any] = [:]
    ) -> [String: Any] {
        var privateAttributes: [String: Any] = [
            kSecAttrAccessControl as String: SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil) as Any
        ]
        if let tag {
            privateAttributes[kSecAttrIsPermanent as String] = true
            privateAttributes[kSecAttrApplicationTag as String] = Data(tag.utf8)
        }
        var parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: privateAttributes,
        ]
        parameters.merge(extra) { $1 }
        return parameters
    }

    /// The key, or the status of the CFError.
    static func create(_ parameters: [String: Any]) -> (key: SecKey?, status: Int?) {
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error)
        return (key, error.map { CFErrorGetCode($0.takeRetainedValue()) })
    }

    static func sign(_ key: SecKey, _ data: Data, _ algorithm: SecKeyAlgorithm = .ecdsaSignatureMessageX962SHA256)
        -> (signature: Data?, status: Int?)
    {
        var error: Unmanaged<CFError>?
        let signature = SecKeyCreateSignature(key, algorithm, data as CFData, &error) as Data?
        return (signature, error.map { CFErrorGetCode($0.takeRetainedValue()) })
    }

    static func verifies(
        _ key: SecKey, _ data: Data, _ signature: Data,
        _ algorithm: SecKeyAlgorithm = .ecdsaSignatureMessageX962SHA256
    ) -> Bool {
        guard let publicKey = SecKeyCopyPublicKey(key) else { return false }
        return SecKeyVerifySignature(publicKey, algorithm, data as CFData, signature as CFData, nil)
    }

    @Test func aKeyIsMadeSignsAndVerifiesWithItsPublicKey() async throws {
        try await inSoftwareEnclave { _, _ in
            let (made, status) = Self.create(Self.parameters())
            #expect(status == nil)
            let key = try #require(made)
            for algorithm in [SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256, .ecdsaSignatureMessageRFC4754SHA256] {
                let signature = try #require(Self.sign(key, message, algorithm).signature)
                #expect(Self.verifies(key, message, signature, algorithm))
                #expect(!Self.verifies(key, Data("other".utf8), signature, algorithm))
            }
            let digest = Data(SHA256.hash(data: message))
            let signature = try #require(Self.sign(key, digest, .ecdsaSignatureDigestX962SHA256).signature)
            #expect(Self.verifies(key, digest, signature, .ecdsaSignatureDigestX962SHA256))
            #expect(Self.verifies(key, message, signature, .ecdsaSignatureMessageX962SHA256))
            // Other digests are signed as ECDSA reads them on P-256 (their leftmost 256 bits, or their value when
            // shorter), as Apple's enclave signs them: a standard verifier of the same algorithm accepts them.
            for algorithm in [
                SecKeyAlgorithm.ecdsaSignatureMessageX962SHA384, .ecdsaSignatureMessageX962SHA512,
                .ecdsaSignatureMessageX962SHA1,
            ] {
                let signature = try #require(Self.sign(key, message, algorithm).signature, "\(algorithm.rawValue)")
                #expect(Self.verifies(key, message, signature, algorithm), "\(algorithm.rawValue)")
                #expect(!Self.verifies(key, Data("other".utf8), signature, algorithm))
            }
        }
    }

    /// In daemon mode the daemon's keychain seals the key's auth value: a daemon that is not there fails the
    /// creation with errSecNotAvailable, and nothing is sealed in a keychain of the process instead.
    @Test func withKeychaindAbsentAnEnclaveKeyIsNotAvailableNotSealedInAKeychainOfTheProcess() async throws {
        try await inSoftwareEnclave { _, _ in
            let daemon = DaemonKeychainService(socketPath: "/nonexistent/keychaind.socket")
            let status = ProcessKeychain.$taskKeychain.withValue(nil) {
                ProcessKeychainService.$taskService.withValue(daemon) { Self.create(Self.parameters()).status }
            }
            #expect(status == Int(errSecNotAvailable))
        }
    }

    @Test func thePrivateKeyCannotBeExported() async throws {
        try await inSoftwareEnclave { _, _ in
            let key = try #require(Self.create(Self.parameters()).key)
            var error: Unmanaged<CFError>?
            #expect(SecKeyCopyExternalRepresentation(key, &error) == nil)
            let failure = try #require(error?.takeRetainedValue())
            #expect(CFErrorGetCode(failure) == Int(errSecUnimplemented))
            #expect(CFErrorGetDomain(failure) as String == "NSOSStatusErrorDomain")
            // The public key exports as any P-256 public key.
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            let external = try #require(SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)
            #expect(external.count == 65 && external.first == 0x04)
        }
    }

    @Test func itsAttributesNameTheTokenAndSayItIsNotHardware() async throws {
        try await inSoftwareEnclave { _, _ in
            let key = try #require(Self.create(Self.parameters()).key)
            let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            #expect(attributes[kSecAttrTokenID as String] as? String == "com.apple.setoken")
            #expect(attributes[kSecAttrIsHardwareBackedLinux as String] as? Bool == false)
            #expect(attributes[kSecAttrIsExtractable as String] as? Bool == false)
            #expect(attributes[kSecValueData as String] == nil)
            #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == 256)
        }
    }

    @Test func keyExchangeAgreesWithASoftwareKey() async throws {
        try await inSoftwareEnclave { _, _ in
            let enclaveKey = try #require(Self.create(Self.parameters()).key)
            let softwareKey = try #require(
                SecKeyCreateRandomKey(
                    [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256]
                        as CFDictionary, nil))
            let enclavePublic = try #require(SecKeyCopyPublicKey(enclaveKey))
            let softwarePublic = try #require(SecKeyCopyPublicKey(softwareKey))
            for algorithm in [SecKeyAlgorithm.ecdhKeyExchangeStandard, .ecdhKeyExchangeStandardX963SHA256] {
                let parameters = [SecKeyKeyExchangeParameter.requestedSize.rawValue as String: 32] as CFDictionary
                var error: Unmanaged<CFError>?
                let ours = SecKeyCopyKeyExchangeResult(enclaveKey, algorithm, softwarePublic, parameters, &error)
                #expect(error == nil)
                let theirs = SecKeyCopyKeyExchangeResult(softwareKey, algorithm, enclavePublic, parameters, nil)
                #expect(ours != nil && (ours as Data?) == (theirs as Data?))
            }
        }
    }

    @Test func otherKeyTypesAndSizesAreRefused() async throws {
        try await inSoftwareEnclave { _, _ in
            let rsa = Self.create(
                Self.parameters(extra: [
                    kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
                    kSecAttrKeySizeInBits as String: 2048,
                ]))
            #expect(rsa.key == nil && rsa.status == Int(errSecParam))
            let p384 = Self.create(Self.parameters(extra: [kSecAttrKeySizeInBits as String: 384]))
            #expect(p384.key == nil && p384.status == Int(errSecParam))
            let otherToken = Self.create(Self.parameters(extra: [kSecAttrTokenID as String: "com.example.token"]))
            #expect(otherToken.status == Int(errSecParam))
            // Apple's enclave keys need .privateKeyUsage.
            let noUsage = Self.create(Self.parameters(flags: .userPresence))
            #expect(noUsage.key == nil && noUsage.status == Int(errSecParam))
            let synchronizable = Self.create(Self.parameters(extra: [kSecAttrSynchronizable as String: true]))
            #expect(synchronizable.status == Int(errSecParam))
        }
    }

    @Test func withoutAnEnclaveTheKeyIsRefusedWithErrSecParam() async throws {
        try await withEnclaveTestKeychain {
            try await SecureEnclaveBacking.$tctiOverride.withValue("") {
                let missing = SecureEnclaveSetting(path: "/nonexistent/secure-enclave", administrator: getuid())
                try await SecureEnclaveSetting.$override.withValue(missing) {
                    let (key, status) = Self.create(Self.parameters())
                    #expect(key == nil)
                    #expect(status == Int(errSecParam))
                }
            }
        }
    }

    @Test func aPermanentKeyIsStoredAsTheEnclaveBlobAndFoundByTag() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sekey-enclave-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let setting = try EnclaveSettingFile()
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("com.example.se".utf8),
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecReturnRef as String: true,
        ]
        let publicKey: SecKey = try setting.use {
            try Self.open(home) {
                let key = try #require(Self.create(Self.parameters(tag: "com.example.se")).key)
                // The item's value is the enclave's stored form, not `04 ‖ X ‖ Y ‖ K`.
                var data: AnyObject?
                var dataQuery = query
                dataQuery[kSecReturnRef as String] = nil
                dataQuery[kSecReturnData as String] = true
                #expect(SecItemCopyMatching(dataQuery as CFDictionary, &data) == errSecSuccess)
                let stored = try #require(data as? Data)
                #expect(stored.prefix(4) == Data("KSWE".utf8))
                #expect(stored.count != 97)
                // Apple has no bridge from a SecKey's enclave key to CryptoKit's types: the blob is refused.
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -50)) {
                    _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored)
                }
                return try #require(SecKeyCopyPublicKey(key))
            }
        }
        // After a reopen, the key found by its tag signs through the enclave.
        try setting.use {
            try Self.open(home) {
                var result: AnyObject?
                #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
                let found = try #require(result.map { $0 as! SecKey })
                #expect(SecKeyCopyExternalRepresentation(found, nil) == nil)
                let signature = try #require(Self.sign(found, message).signature)
                #expect(
                    SecKeyVerifySignature(
                        publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData, signature as CFData, nil))
            }
        }
    }

    @Test func accessControlAsksBeforeEachUse() async throws {
        try await inSoftwareEnclave { keychain, _ in
            let biometry = keychain.authenticators.biometry
            let key = try #require(Self.create(Self.parameters(flags: [.privateKeyUsage, .biometryCurrentSet])).key)
            try biometry.script(.match)
            #expect(Self.sign(key, message).signature != nil)
            try biometry.script(.noMatch)
            #expect(Self.sign(key, message).status == Int(errSecAuthFailed))
            try biometry.script(.cancel)
            #expect(Self.sign(key, message).status == Int(errSecUserCanceled))
            try biometry.script(.match)
            #expect(Self.sign(key, message).signature != nil)
            // An enrollment change ends a .biometryCurrentSet key for good.
            try biometry.enroll()
            try biometry.script(.match)
            #expect(Self.sign(key, message).status == Int(errSecAuthFailed))
        }
    }

    @Test func anEvaluatedContextIsReusedBySigning() async throws {
        try await inSoftwareEnclave { keychain, _ in
            let biometry = keychain.authenticators.biometry
            let context = LAContext()
            try biometry.script(.match)
            #expect(try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "t"))
            let parameters = Self.parameters(
                flags: [.privateKeyUsage, .biometryAny], extra: [kSecUseAuthenticationContext as String: context])
            let key = try #require(Self.create(parameters).key)
            // Nothing scripted: these are signed without a prompt.
            #expect(Self.sign(key, message).signature != nil)
            #expect(Self.sign(key, message).signature != nil)
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/swtpm"), "swtpm is not installed"))
    func aTPMKeySignsAndSaysItIsHardware() async throws {
        let tpm = try SoftwareTPM()
        try await withEnclaveTestKeychain {
            try await SecureEnclaveBacking.$tctiOverride.withValue(tpm.tcti) {
                let key = try #require(Self.create(Self.parameters()).key)
                let signature = try #require(Self.sign(key, message).signature)
                #expect(Self.verifies(key, message, signature))
                let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
                #expect(attributes[kSecAttrIsHardwareBackedLinux as String] as? Bool == true)
                #expect(SecKeyCopyExternalRepresentation(key, nil) == nil)
                let peer = try #require(
                    SecKeyCreateRandomKey(
                        [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom] as CFDictionary, nil))
                let ours = SecKeyCopyKeyExchangeResult(
                    key, .ecdhKeyExchangeStandard, try #require(SecKeyCopyPublicKey(peer)), [:] as CFDictionary, nil)
                let theirs = SecKeyCopyKeyExchangeResult(
                    peer, .ecdhKeyExchangeStandard, try #require(SecKeyCopyPublicKey(key)), [:] as CFDictionary, nil)
                #expect(ours != nil && (ours as Data?) == (theirs as Data?))
            }
        }
    }

    // MARK: - Fixtures

    /// A fresh keychain (passcode "1234", sensor enrolled) and the software enclave opted in, for `body`.
    func inSoftwareEnclave(_ body: (Keychain, EnclaveSettingFile) async throws -> Void) async throws {
        let setting = try EnclaveSettingFile()
        try await withAuthenticatingKeychain { keychain, _ in
            try await SecureEnclaveBacking.$tctiOverride.withValue("") {
                try await SecureEnclaveSetting.$override.withValue(setting.setting) {
                    try await body(keychain, setting)
                }
            }
        }
    }

    func withEnclaveTestKeychain(_ body: () async throws -> Void) async throws {
        try await withAuthenticatingKeychain { _, _ in try await body() }
    }

    /// Opens the keychain home `home` (no passcode), runs `body` with it installed, and closes it.
    static func open<R>(_ home: URL, _ body: () throws -> R) throws -> R {
        var configuration = KeychainConfiguration(
            home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]))
        configuration.passcodeDerivationTarget = 0.002
        let keychain = try Keychain(configuration: configuration)
        defer { keychain.close() }
        return try SecurityRuntime.withKeychain(keychain, body)
    }
}
