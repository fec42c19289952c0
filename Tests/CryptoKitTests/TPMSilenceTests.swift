import Dispatch
import Foundation
import KeychainCore
import KeychainTestSupport
import Security
import Testing

@testable import CryptoKit
@testable import TPMEnclave

// keychain-lint:ignore-file KL603 -- these tests create keys in the software TPM they start (SoftwareTPM)

/// A TPM that stays silent (`swtpm` suspended with SIGSTOP) costs the process one thread, the one given up in a call
/// to it: while that thread waits, every new attempt to connect fails at once with errSecNotAvailable instead of
/// leaving another thread (and its TCTI's descriptors) beside it, and once the TPM answers the thread ends and
/// connecting works again. A use that arrives while another caller connects waits its own timeout only, and
/// `SecureEnclave.isAvailable` stays true while the TPM it was reached through is silent or gone: it says what
/// the machine has, as on Apple's, and an app that took false for "no Secure Enclave" would make software keys in
/// its place; the operations answer errSecNotAvailable meanwhile.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
struct TPMSilenceTests {
    static let short = TPMTimeouts(creation: 1, use: 1)
    let message = Data("sign me".utf8)
    let digest = Array(SHA256.hash(data: Data("sign me".utf8)))

    @Test func repeatedConnectsToASilentTPMLeaveOneThreadAndFailAtOnce() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.resume() }
        tpm.pause()
        let threads = Self.threads()
        let descriptors = Self.descriptors()

        let first = try #require(throws: TPMError.self) { try TPMConnection(tcti: tpm.tcti, timeouts: Self.short) }
        #expect(first == .timedOut(tcti: tpm.tcti, seconds: 1))
        for _ in 0..<8 {
            let refused = try #require(throws: TPMError.self) {
                try TPMConnection(tcti: tpm.tcti, timeouts: Self.short)
            }
            #expect(refused.status == -25291)
            #expect(refused.description.hasPrefix("the TPM at \(tpm.tcti) has not answered a call given up"))
        }
        // The one attempt given up: its thread and the swtpm TCTI's socket (one more of each per attempt before:
        // nine), with room for a thread and a descriptor of the test runner's meanwhile.
        #expect(Self.threads() - threads <= 2)
        #expect(Self.descriptors() - descriptors <= 2)

        tpm.resume()
        let connection = try Self.onceAnswered { try TPMConnection(tcti: tpm.tcti, timeouts: Self.short) }
        let blob = try connection.createKey(use: .signing)
        _ = try connection.sign(digest: digest, with: blob)
        // The thread given up ended once its call returned; the connection's own thread runs.
        #expect(Self.eventually { Self.threads() - threads <= 1 }, "\(Self.threads() - threads) threads more")
    }

    @Test func aUseThatTimedOutMakesTheNextFailAtOnceUntilTheTPMAnswers() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.resume() }
        let connection = try TPMConnection(tcti: tpm.tcti, timeouts: TPMTimeouts(creation: 4, use: 1))
        let blob = try connection.createKey(use: .signing)

        tpm.pause()
        #expect(throws: TPMError.timedOut(tcti: tpm.tcti, seconds: 1)) {
            try connection.sign(digest: digest, with: blob)
        }
        // Connecting anew is not tried while the sign given up waits for the TPM (before: a 4 s attempt each time).
        for _ in 0..<3 {
            let refused = try #require(throws: TPMError.self) { try connection.sign(digest: digest, with: blob) }
            #expect(refused.status == -25291)
            #expect(refused.description.hasPrefix("the TPM at \(tpm.tcti) has not answered a call given up"))
        }

        tpm.resume()
        let signature = try Self.onceAnswered { try connection.sign(digest: digest, with: blob) }
        let publicKey = try P256.Signing.PublicKey(x963Representation: blob.publicPoint)
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: message))
    }

    /// One caller connects anew (to a TPM restarted, then suspended) while another wants to sign: the sign waits for
    /// that attempt within its own timeout, not the attempt's and then its own.
    @Test func aUseArrivingDuringAConnectAttemptWaitsOnlyItsOwnTimeout() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.resume() }
        let connection = try TPMConnection(tcti: tpm.tcti, timeouts: TPMTimeouts(creation: 8, use: 1))
        let blob = try connection.createKey(use: .signing)
        let digest = digest
        tpm.crash()
        #expect(throws: TPMError.connectionLost(tcti: tpm.tcti, operation: "Load", code: 0xA_000A)) {
            try connection.sign(digest: digest, with: blob)
        }
        try tpm.start(port: tpm.port)
        tpm.pause()

        let connecting = Background { try connection.createKey(use: .signing) }
        // The creation connects anew, and the TPM does not answer: the sign arrives during that attempt.
        try #require(Self.eventually { connection.isConnectingAnew }, "the creation did not start connecting")
        let started = Date()
        let waiting = try #require(throws: TPMError.self) { try connection.sign(digest: digest, with: blob) }
        let waited = Date().timeIntervalSince(started)
        #expect(waiting == .timedOut(tcti: tpm.tcti, seconds: 1))
        #expect(waited < 5, "the sign waited \(waited) s (its timeout 1 s, the attempt's 8 s)")
        let attempt = try #require(connecting.result(within: 30), "the creation did not return")
        #expect(throws: TPMError.timedOut(tcti: tpm.tcti, seconds: 8)) { try attempt.get() }

        tpm.resume()
        _ = try Self.onceAnswered { try connection.sign(digest: digest, with: blob) }
    }

    /// Asked while a call to the TPM is given up, `isAvailable` stays true, without waiting for the TPM.
    @Test func isAvailableStaysTrueWhileACallIsGivenUp() throws {
        try withEnclaveKeychain { keychain, _ in
            let tpm = try SoftwareTPM()
            defer { tpm.resume() }
            let tcti = tpm.tcti
            let message = message
            #expect(TPMTimeoutTests.inTPM(tcti) { SecureEnclave.isAvailable })
            let key = try TPMTimeoutTests.inTPM(tcti) { try SecureEnclave.P256.Signing.PrivateKey() }

            tpm.pause()
            let signing = Background {
                try SecurityRuntime.withKeychain(keychain) {
                    try TPMTimeoutTests.inTPM(tcti) { _ = try key.signature(for: message) }
                }
            }
            let signed = try #require(signing.result(within: 30), "the sign did not return")
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -25291)) { try signed.get() }
            let asking = Background { TPMTimeoutTests.inTPM(tcti) { SecureEnclave.isAvailable } }
            let answer = try #require(asking.result(within: 5), "isAvailable waited for the silent TPM")
            #expect(try answer.get() == true)

            tpm.resume()
            let signature = try TPMTimeoutTests.onceSettled { try key.signature(for: message) }
            #expect(key.publicKey.isValidSignature(signature, for: message))
        }
    }

    /// Asked before any connection while the TPM is silent, `isAvailable` waits for one attempt and is false; asked
    /// again, it is false without another attempt.
    @Test func isAvailableOfASilentTPMWaitsForOneAttemptOnly() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.resume() }
        let tcti = tpm.tcti
        let timeouts = TPMTimeouts(creation: 4, use: 1)
        let inSilentTPM = { @Sendable () -> Bool in
            TPMTimeouts.$override.withValue(timeouts) {
                SecureEnclaveBacking.$tctiOverride.withValue(tcti) { SecureEnclave.isAvailable }
            }
        }
        tpm.pause()
        let first = try #require(Background(inSilentTPM).result(within: 30), "isAvailable did not return")
        #expect(try first.get() == false)
        let started = Date()
        let second = try #require(Background(inSilentTPM).result(within: 30), "isAvailable did not return")
        let waited = Date().timeIntervalSince(started)
        #expect(try second.get() == false)
        #expect(waited < timeouts.creation, "asked again, isAvailable waited \(waited) s")

        tpm.resume()
        #expect(Self.eventually(inSilentTPM))
    }

    /// After a use found the TPM gone, `isAvailable` stays true, and the key signs again once the TPM is back.
    @Test func isAvailableStaysTrueWhenTheTPMWentAway() throws {
        try withEnclaveKeychain { _, _ in
            let tpm = try SoftwareTPM()
            let tcti = tpm.tcti
            let message = message
            let key = try TPMTimeoutTests.inTPM(tcti) { try SecureEnclave.P256.Signing.PrivateKey() }
            #expect(TPMTimeoutTests.inTPM(tcti) { SecureEnclave.isAvailable })

            tpm.crash()
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -25291)) {
                _ = try key.signature(for: message)
            }
            #expect(TPMTimeoutTests.inTPM(tcti) { SecureEnclave.isAvailable })

            try tpm.start(port: tpm.port)
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
        }
    }

    /// `body`'s result once the TPM, resumed, has answered the call given up: until then connecting is refused
    /// (errSecNotAvailable), as is a load while swtpm's few object slots are still taken.
    static func onceAnswered<R>(_ body: () throws -> R) throws -> R {
        let deadline = Date() + 30
        var timeouts = 0
        while true {
            do {
                return try body()
            } catch let error as TPMError where error.status == -25291 && Date() < deadline {
                // Calls that keep timing out after the TPM answers again are a failure, not a wait (one or two
                // may, on a machine busy with other work).
                if case .timedOut = error {
                    timeouts += 1
                    if timeouts > 2 { throw error }
                }
                usleep(100_000)
            }
        }
    }

    /// Whether `condition` holds within 30 s.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date() + 30
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(100_000)
        }
        return true
    }

    /// The process's threads.
    static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    /// The process's open file descriptors.
    static func descriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }
}
