import CryptoKit
import Foundation
import KeychainCore
import KeychainRequests
import KeychainTestSupport
import LocalAuthentication
import Security
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Secure Enclave keys through keychaind: their auth values (and the software enclave's outer box) are sealed and
/// opened by the daemon's keychain, so its lock state and its judgement of the user's authentication decide every
/// use, and nothing is kept in a keychain of the client's.
@Suite(.serialized) struct DaemonEnclaveKeyTests {
    /// Answers the daemon's passcode questions with "1234", counting them and keeping the last one's text.
    final class Passcode: UserPrompter {
        let asked = Mutex(0)
        let lastReason = Mutex<String?>(nil)
        func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
            guard case .devicePasscode(let reason) = prompt else { throw AuthenticationFailure.notInteractive }
            asked.withLock { $0 += 1 }
            lastReason.withLock { $0 = reason }
            return .passcode(SecureBytesBox(Array("1234".utf8)))
        }
    }

    @Test func aSoftwareEnclaveKeyIsUsableOnlyWhileTheDaemonsKeychainIsUnlocked() throws {
        try withDaemon { client, _ in
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            let message = Data("through keychaind".utf8)
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(restored.publicKey.rawRepresentation == key.publicKey.rawRepresentation)

            try client.lock()
            #expect(status { _ = try restored.signature(for: message) } == -25308)
            try client.unlock(passcode: Secret(Array("1234".utf8)))
            #expect(key.publicKey.isValidSignature(try restored.signature(for: message), for: message))

            // Key agreement: the enclave's shared secret is the one a software key computes.
            let agreeing = try SecureEnclave.P256.KeyAgreement.PrivateKey()
            let peer = P256.KeyAgreement.PrivateKey()
            let ours = try agreeing.sharedSecretFromKeyAgreement(with: peer.publicKey)
            let theirs = try peer.sharedSecretFromKeyAgreement(with: agreeing.publicKey)
            #expect(ours == theirs)
        }
    }

    @Test func aKeySealedByTheDaemonDoesNotOpenInAKeychainOfTheClients() throws {
        let made = try withDaemon { _, _ in try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation }
        try withOwnKeychain {
            #expect(status { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: made) } == -26275)
        }
    }

    @Test func aPasscodeConstraintIsAskedByTheDaemonAndAContextsEvaluationIsReused() async throws {
        let prompter = Passcode()
        try await withDaemon(prompter) { _, service in
            let access = try #require(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.privateKeyUsage, .devicePasscode], nil))
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
            let message = Data("m".utf8)
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            #expect(prompter.asked.withLock { $0 } == 1)

            // A context that refuses interaction is refused, and nobody is asked.
            let refusing = LAContext()
            refusing.interactionNotAllowed = true
            let quiet = try SecureEnclave.P256.Signing.PrivateKey(
                dataRepresentation: key.dataRepresentation, authenticationContext: refusing)
            #expect(status { _ = try quiet.signature(for: message) } == -25308)
            #expect(prompter.asked.withLock { $0 } == 1)

            // A context the daemon authenticated serves the key's uses within its reuse duration.
            let context = LAContext()
            context.touchIDAuthenticationAllowableReuseDuration = 60
            #expect(try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "sign"))
            #expect(prompter.asked.withLock { $0 } == 2)
            let reusing = try SecureEnclave.P256.Signing.PrivateKey(
                dataRepresentation: key.dataRepresentation, authenticationContext: context)
            for _ in 0..<2 {
                #expect(key.publicKey.isValidSignature(try reusing.signature(for: message), for: message))
            }
            #expect(prompter.asked.withLock { $0 } == 2)
            _ = service
        }
    }

    @Test func aSecKeyOfTheEnclaveIsStoredInTheDaemonsKeychainAndSigns() throws {
        try withDaemon { client, _ in
            let tag = Data("daemon.enclave.key".utf8)
            let parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag,
                ] as [String: Any],
            ]
            var error: Unmanaged<CFError>?
            let made = SecKeyCreateRandomKey(parameters as CFDictionary, &error)
            #expect(error == nil)
            let publicKey = try #require(made.flatMap(SecKeyCopyPublicKey))

            let query: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                kSecReturnRef as String: true,
            ]
            var found: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            let key = try #require(found as! SecKey?)  // swiftlint:disable:this force_cast
            let message = Data("stored in keychaind".utf8) as CFData
            let signature = try #require(
                SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message, nil) as Data?)
            #expect(
                SecKeyVerifySignature(
                    publicKey, .ecdsaSignatureMessageX962SHA256, message, signature as CFData, nil))
            // The item is the daemon's: the engine's own listing through the same service finds it.
            #expect(try client.search(ItemQuery(itemClass: .key, limit: .all, returns: .attributes)).results.count == 1)
        }
    }

    /// The client holds only the stored form: a key whose access control was altered in it (the passcode
    /// constraint taken out) does not open in the daemon, and no answer ever carries an auth value.
    @Test func aStoredFormWithAnAlteredAccessControlDoesNotOpenInTheDaemon() throws {
        let prompter = Passcode()
        try withDaemon(prompter) { _, _ in
            let access = try #require(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.privateKeyUsage, .devicePasscode], nil))
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
            var stored = Array(key.dataRepresentation)
            // "KSWE" ‖ version ‖ use ‖ point (65) ‖ u8 len ‖ class ‖ u64 flags: the flags' last byte.
            let classLength = Int(stored[71])
            let lastFlagByte = 72 + classLength + 7
            stored[lastFlagByte] = 0
            #expect(
                status { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(stored)) } == -26275)
            #expect(prompter.asked.withLock { $0 } == 0)
        }
    }

    @Test func aKeyOfTheClientsOwnHomeDoesNotOpenThroughTheDaemonAndTheDaemonsOpensOnANewConnection() throws {
        let local = try withOwnKeychain { try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation }
        try withDaemon { _, service in
            #expect(status { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: local) } == -26275)
            let made = try SecureEnclave.P256.Signing.PrivateKey()
            let another = DaemonKeychainService(socketPath: service.socketPath, prompter: Passcode())
            #expect(try Self.signs(made, restoredThrough: another))
        }
    }

    /// Whether `key`, restored from its stored form through `service`, signs for its public key.
    private static func signs(
        _ key: SecureEnclave.P256.Signing.PrivateKey, restoredThrough service: DaemonKeychainService
    )
        throws -> Bool
    {
        try ProcessKeychainService.$taskService.withValue(service) {
            let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            let message = Data("again".utf8)
            return key.publicKey.isValidSignature(try restored.signature(for: message), for: message)
        }
    }

    /// An application password on the key's `LAContext` reaches the daemon with the context's id, at the seal and
    /// at each use.
    @Test func anApplicationPasswordKeyNeedsThePasswordOnItsContextThroughTheDaemon() throws {
        try withDaemon { _, _ in
            let access = try #require(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .applicationPassword], nil))
            let context = LAContext()
            context.setCredential(Data("app secret".utf8), type: .applicationPassword)
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access, authenticationContext: context)
            let message = Data("m".utf8)
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            let bare = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(status { _ = try bare.signature(for: message) } == -25293)
            let wrong = LAContext()
            wrong.setCredential(Data("guess".utf8), type: .applicationPassword)
            let guessed = try SecureEnclave.P256.Signing.PrivateKey(
                dataRepresentation: key.dataRepresentation, authenticationContext: wrong)
            #expect(status { _ = try guessed.signature(for: message) } == -25293)
        }
    }

    /// A daemon that is gone fails creation, restoration and use with errSecNotAvailable, and one that did not opt
    /// in to the software enclave has none, whatever its client's setting says.
    @Test func anAbsentDaemonIsNotAvailableAndOneWithoutTheOptInHasNoEnclave() throws {
        let setting = try EnclaveSettingFile()
        var daemon: DaemonProcess? = try DaemonProcess(["--secure-enclave-setting", setting.file])
        let service = DaemonKeychainService(socketPath: try #require(daemon?.socketPath), prompter: Passcode())
        try ProcessKeychain.$taskKeychain.withValue(nil) {
            try ProcessKeychainService.$taskService.withValue(service) {
                try SecureEnclaveBacking.$tctiOverride.withValue("") {
                    try setting.use {
                        let key = try SecureEnclave.P256.Signing.PrivateKey()
                        daemon?.stop()
                        daemon = nil
                        #expect(status { _ = try key.signature(for: Data("m".utf8)) } == -25291)
                        #expect(
                            status {
                                _ = try SecureEnclave.P256.Signing.PrivateKey(
                                    dataRepresentation: key.dataRepresentation)
                            }
                                == -25291)
                        #expect(status { _ = try SecureEnclave.P256.Signing.PrivateKey() } == -25291)
                    }
                }
            }
        }
        // A daemon without the opt-in (and no TPM) has no enclave, whatever its client's own setting says.
        let plain = try DaemonProcess()
        let other = DaemonKeychainService(socketPath: plain.socketPath, prompter: Passcode())
        try ProcessKeychain.$taskKeychain.withValue(nil) {
            try ProcessKeychainService.$taskService.withValue(other) {
                try setting.use {
                    #expect(!SecureEnclave.isAvailable)
                    #expect(status { _ = try SecureEnclave.P256.Signing.PrivateKey() } == -4)
                }
            }
        }
    }

    /// A client of another uid that got hold of a stored form (from a file, from the other user's backup) sends it
    /// straight to the daemon, right after its owner used it (so the daemon holds it loaded): the key is sealed in
    /// its owner's home, so the other uid's keychain cannot open it, and a loaded key is never another home's.
    @Test(.enabled(if: getuid() == 0, "needs root: it drops to a test user with setpriv"))
    func anotherUidCannotUseAKeyWhoseStoredFormItHolds() throws {
        let user = try OtherUidTests.testUser()
        let setting = try EnclaveSettingFile()
        let daemon = try DaemonProcess(["--secure-enclave-setting", setting.file])
        let service = DaemonKeychainService(socketPath: daemon.socketPath, prompter: Passcode())
        let stored = try ProcessKeychain.$taskKeychain.withValue(nil) {
            try ProcessKeychainService.$taskService.withValue(service) {
                let key = try SecureEnclave.P256.Signing.PrivateKey()
                _ = try key.signature(for: Data("owner".utf8))
                return key.dataRepresentation
            }
        }
        let hex = stored.map { String(format: "%02x", $0) }.joined()
        let client = try AppIsolationTests.Apps.clientExecutable()
        let run = try OtherUidTests.runAs(user, client, "enclave-sign", hex, socket: daemon.socketPath)
        #expect(run["status"] == "-26275", "\(run)")
        // The owner's own client, sending the same bytes, is served.
        let ownRun = try runClient(client, ["enclave-sign", hex], socket: daemon.socketPath).fields
        #expect(ownRun["status"] == "0", "\(ownRun)")
    }

    @Test(.enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
    func aKeyInTheDaemonsTPMIsUsedByAClientWithoutOne() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        try withDaemon(tcti: tpm.tcti) { client, _ in
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            #expect(key.isHardwareBacked)
            let message = Data("tpm".utf8)
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))

            // "KTPA" ‖ u32 length ‖ TPM blob ‖ access control ‖ sealed auth value.
            let stored = Array(key.dataRepresentation)
            let blobLength = stored[4..<8].reduce(0) { $0 << 8 | Int($1) }
            // The TPM blob alone (an earlier release's bare key) would be used with an empty auth value: refused
            // before the TPM is asked, so no client can try values at the TPM.
            let bare = Data(stored[8..<(8 + blobLength)])
            #expect(status { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: bare) } == -50)
            // A passcode constraint added to the flags (the class is "aku", 3 letters): the seal names the access
            // control it was made for, so it does not open.
            var altered = stored
            altered[8 + blobLength + 1 + 3 + 7] |= 0x10
            let signsAltered = status {
                _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(altered)).signature(for: message)
            }
            #expect(signsAltered == -26275)
            // Bytes after the seal would be kept with the loaded key: a stored form longer than any seal is refused.
            let padded = Data(stored + [UInt8](repeating: 0x41, count: 64 * 1024))
            #expect(status { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: padded) } == -50)

            try client.lock()
            #expect(status { _ = try key.signature(for: message) } == -25308)
        }
    }

    /// The daemon checks a request before it asks anyone: a use the key does not have, a digest of another size
    /// or a use byte of no kind is errSecParam with no prompt. A prompt without a reason names the app the daemon
    /// took the client for, as an item's does.
    @Test func aMalformedUseIsRefusedBeforeAnyPromptAndAPromptNamesTheCaller() throws {
        let prompter = Passcode()
        try withDaemon(prompter) { client, _ in
            let access = try #require(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.privateKeyUsage, .devicePasscode], nil))
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
            let stored = Array(key.dataRepresentation)
            let malformed: [EnclaveKeyRequest] = [
                .sign(storedForm: stored, use: 1, digest: [1, 2, 3], reason: nil),
                .agree(storedForm: stored, use: 1, peerPoint: Array(repeating: 4, count: 65), reason: nil),
                .restore(storedForm: stored, use: 9),
            ]
            for request in malformed {
                do {
                    _ = try client.service.perform(.enclaveKey(request), as: client.caller)
                    Issue.record("served \(request)")
                } catch {
                    #expect((error as? KeychainError)?.status == -50)
                }
            }
            #expect(prompter.asked.withLock { $0 } == 0)
            _ = try key.signature(for: Data("m".utf8))
            let reason = try #require(prompter.lastReason.withLock { $0 })
            #expect(!reason.hasPrefix("A program"), "\(reason)")
        }
    }

    /// Runs `body` as a client of a fresh keychaind (passcode "1234" set, no grace period after a lock) whose
    /// enclave is the TPM at `tcti`, or its software enclave opted in; the client has no keychain, no TPM and no
    /// opt-in of its own.
    private func withDaemon<R>(
        _ prompter: Passcode = Passcode(), tcti: String? = nil,
        _ body: (KeychainClient, DaemonKeychainService) throws -> R
    ) throws -> R {
        let setting = try EnclaveSettingFile()
        let daemon = try DaemonProcess(
            ["--secure-enclave-setting", setting.file],
            environment: tcti.map { [SecureEnclaveBacking.tctiVariable: $0] } ?? [:])
        let service = DaemonKeychainService(socketPath: daemon.socketPath, prompter: prompter)
        let client = KeychainClient(service: service)
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        try daemon.ownerClient().setGracePeriod(0)
        return try withExtendedLifetime(daemon) {
            try ProcessKeychain.$taskKeychain.withValue(nil) {
                try ProcessKeychainService.$taskService.withValue(service) {
                    try SecureEnclaveBacking.$tctiOverride.withValue("") { try body(client, service) }
                }
            }
        }
    }

    private func withDaemon<R>(
        _ prompter: Passcode = Passcode(), _ body: (KeychainClient, DaemonKeychainService) async throws -> R
    ) async throws -> R {
        let setting = try EnclaveSettingFile()
        let daemon = try DaemonProcess(["--secure-enclave-setting", setting.file])
        let service = DaemonKeychainService(socketPath: daemon.socketPath, prompter: prompter)
        let client = KeychainClient(service: service)
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        try daemon.ownerClient().setGracePeriod(0)
        let result = try await ProcessKeychain.$taskKeychain.withValue(nil) {
            try await ProcessKeychainService.$taskService.withValue(service) {
                try await SecureEnclaveBacking.$tctiOverride.withValue("") { try await body(client, service) }
            }
        }
        withExtendedLifetime((daemon, setting)) {}
        return result
    }

    /// Runs `body` with a keychain of the test process's own installed for the task, and the software enclave
    /// opted in for it.
    private func withOwnKeychain<R>(_ body: () throws -> R) throws -> R {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("enclave-client-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        var configuration = KeychainConfiguration(
            home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]))
        configuration.passcodeDerivationTarget = 0.002
        let keychain = try Keychain(configuration: configuration)
        defer { keychain.close() }
        return try EnclaveSettingFile().use { try SecurityRuntime.withKeychain(keychain, body) }
    }

    /// The status a CryptoKit call failed with (`underlyingCoreCryptoError`), nil when it succeeded.
    private func status(_ body: () throws -> Void) -> Int32? {
        do {
            try body()
            return nil
        } catch CryptoKitError.underlyingCoreCryptoError(let error) {
            return error
        } catch {
            return Int32.min
        }
    }
}
