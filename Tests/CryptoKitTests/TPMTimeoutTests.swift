import Dispatch
import Foundation
import KeychainCore
import KeychainTestSupport
import Security
import Synchronization
import Testing

@testable import CryptoKit
@testable import TPMEnclave

// keychain-lint:ignore-file KL603 -- these tests create keys in the software TPM they start (SoftwareTPM)

/// A TPM that stops answering (`swtpm` suspended with SIGSTOP: its sockets stay open and take the commands) makes
/// calls fail with errSecNotAvailable after the connection's timeout, callers queued behind a stuck call included,
/// and once it answers again the next call works, on a new connection.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
struct TPMTimeoutTests {
    static let short = TPMTimeouts(creation: 2, use: 1)
    /// Far above the timeouts even on a loaded machine; without them a call to a suspended TPM never returns.
    static let bound: Double = 30
    let message = Data("sign me".utf8)

    @Test func aSignTheTPMDoesNotAnswerFailsAndSoDoesTheCallQueuedBehindIt() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.resume() }
        let connection = try TPMConnection(tcti: tpm.tcti, timeouts: Self.short)
        let authorization = [UInt8](repeating: 3, count: 32)
        let blob = try connection.createKey(use: .signing, authorization: authorization)
        let digest = Array(SHA256.hash(data: message))

        tpm.pause()
        let stuck = Background { try connection.sign(digest: digest, with: blob, authorization: authorization) }
        usleep(300_000)  // the second call queues behind the first, which the TPM holds
        let queued = Background { try connection.sign(digest: digest, with: blob, authorization: authorization) }
        for call in [stuck, queued] {
            let result = try #require(call.result(within: Self.bound), "a sign did not return within \(Self.bound) s")
            #expect(throws: TPMError.timedOut(tcti: tpm.tcti, seconds: 1)) { try result.get() }
            #expect(Self.status(result) == -25291)
        }

        tpm.resume()
        let signature = try Self.onceSettled {
            try connection.sign(digest: digest, with: blob, authorization: authorization)
        }
        let publicKey = try P256.Signing.PublicKey(x963Representation: blob.publicPoint)
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: message))
    }

    @Test func aKeyCreationTheTPMDoesNotAnswerFailsAndTheNextOneWorks() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.resume() }
        let connection = try TPMConnection(tcti: tpm.tcti, timeouts: Self.short)

        tpm.pause()
        let stuck = Background { try connection.createKey(use: .keyAgreement) }
        let result = try #require(
            stuck.result(within: Self.bound), "the creation did not return within \(Self.bound) s")
        #expect(throws: TPMError.timedOut(tcti: tpm.tcti, seconds: 2)) { try result.get() }
        #expect(Self.status(result) == -25291)

        tpm.resume()
        let blob = try Self.onceSettled { try connection.createKey(use: .keyAgreement) }
        let peer = P256.KeyAgreement.PrivateKey()
        let point = Array(peer.publicKey.x963Representation)
        let shared = try connection.sharedSecret(peerX: Array(point[1...32]), peerY: Array(point[33...64]), with: blob)
        let expected = try peer.sharedSecretFromKeyAgreement(
            with: P256.KeyAgreement.PublicKey(x963Representation: blob.publicPoint))
        #expect(shared == expected.withUnsafeBytes { Array($0) })
    }

    @Test func cryptoKitAndSecKeyReportErrSecNotAvailableAndWorkAgainAfterwards() throws {
        try withEnclaveKeychain { keychain, _ in
            let tpm = try SoftwareTPM()
            defer { tpm.resume() }
            let tcti = tpm.tcti
            let message = message
            let key = try Self.inTPM(tcti) { try SecureEnclave.P256.Signing.PrivateKey() }
            let secKey = try #require(Unchecked(Self.inTPM(tcti) { Self.makeSecKey() }))
            // While the TPM is suspended the calls run on threads of their own, which a hung call would otherwise
            // leave the test in: each binds the task's keychain again.
            let inBackground = { @Sendable (body: @escaping @Sendable () throws -> Void) in
                Background { try SecurityRuntime.withKeychain(keychain) { try Self.inTPM(tcti, body) } }
            }

            tpm.pause()
            let signing = inBackground { _ = try key.signature(for: message) }
            let signed = try #require(signing.result(within: Self.bound), "CryptoKit's sign did not return")
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -25291)) { try signed.get() }
            // The connection was given up: a new one cannot make its primary key while the TPM is suspended either.
            let creating = inBackground { _ = try SecureEnclave.P256.Signing.PrivateKey() }
            let created = try #require(creating.result(within: Self.bound), "CryptoKit's creation did not return")
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -25291)) { try created.get() }
            let secKeySigning = inBackground { try Self.signWithSecKey(secKey.value, message) }
            let secKeySigned = try #require(secKeySigning.result(within: Self.bound), "SecKey's sign did not return")
            guard case .failure(let failure) = secKeySigned else {
                Issue.record("SecKey signed with a suspended TPM")
                return
            }
            #expect((failure as NSError).code == -25291)
            // Not connecting anew while the sign given up still waits for the TPM.
            #expect(
                (failure as NSError).localizedDescription.contains(
                    "the TPM at \(tcti) has not answered a call given up"))

            tpm.resume()
            let signature = try Self.onceSettled { try key.signature(for: message) }
            #expect(key.publicKey.isValidSignature(signature, for: message))
            try Self.onceSettled { try Self.signWithSecKey(secKey.value, message) }
            _ = try Self.onceSettled { try Self.inTPM(tcti) { try SecureEnclave.P256.Signing.PrivateKey() } }
        }
    }

    /// Runs `body` with the enclave in the TPM at `tcti`, whose new connections have the short timeouts.
    static func inTPM<R>(_ tcti: String, _ body: () throws -> R) rethrows -> R {
        try TPMTimeouts.$override.withValue(short) {
            try SecureEnclaveBacking.$tctiOverride.withValue(tcti) { try body() }
        }
    }

    /// `body`'s result once the resumed TPM has settled: the calls it was stuck on reach it late (their connections
    /// wait for TCP's retries), no new connection is made until they return, and until their threads flush what those
    /// loaded, swtpm (no resource manager, a few object slots) may refuse a load for lack of memory,
    /// errSecNotAvailable: try again, as a caller would. A TPMError is retried only for those, never for a timeout, so
    /// a connection that stays given up is not waited out.
    static func onceSettled<R>(_ body: () throws -> R) throws -> R {
        let deadline = Date() + bound
        while true {
            do {
                return try body()
            } catch  where Self.isNotAvailable(error) && Date() < deadline {
                usleep(200_000)
            }
        }
    }

    /// A TPM out of object or session memory; through the faces, errSecNotAvailable.
    static func isNotAvailable(_ error: any Error) -> Bool {
        if case .stillUnanswered? = error as? TPMError { return true }
        if case .tpm(_, let code)? = error as? TPMError { return code == 0x902 || code == 0x903 }
        if case CryptoKitError.underlyingCoreCryptoError(let status)? = error as? CryptoKitError {
            return status == -25291
        }
        return (error as NSError).code == -25291
    }

    static func status<T>(_ result: Result<T, any Error>) -> Int32? {
        guard case .failure(let error) = result else { return nil }
        return (error as? TPMError)?.status
    }

    /// A SecureEnclave SecKey in the task's enclave.
    static func makeSecKey() -> SecKey? {
        let access = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil)
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [kSecAttrAccessControl as String: access as Any],
        ]
        return SecKeyCreateRandomKey(parameters as CFDictionary, nil)
    }

    /// Signs with `key`, throwing its CFError.
    static func signWithSecKey(_ key: SecKey, _ message: Data) throws {
        var error: Unmanaged<CFError>?
        guard SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) != nil else {
            throw error!.takeRetainedValue()
        }
    }
}

/// A call on a thread of its own, whose result the test waits for with a bound.
final class Background<T: Sendable>: Sendable {
    private let outcome = Mutex<Result<T, any Error>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws -> T) {
        Thread.detachNewThread { [self] in
            let result = Result { try body() }
            outcome.withLock { $0 = result }
            finished.signal()
        }
    }

    /// The result, or nil when the call has not returned within `seconds`.
    func result(within seconds: Double) -> Result<T, any Error>? {
        guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
        return outcome.withLock { $0 }
    }
}

/// A value handed to another thread that the test alone uses there.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init?(_ value: Value?) {
        guard let value else { return nil }
        self.value = value
    }
}
