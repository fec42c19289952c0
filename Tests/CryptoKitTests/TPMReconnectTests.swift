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

/// A TPM whose transport breaks (swtpm killed, then started again on the same port over the same state: the keys'
/// seed is the same) fails the call that meets the break with errSecNotAvailable and gives the ESAPI connection up,
/// so the next call on the same TPMConnection, and so on the key objects that hold it, connects anew. An answer of
/// the TPM (a wrong auth value) keeps the connection.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
struct TPMReconnectTests {
    static let short = TPMTimeouts(creation: 5, use: 5)
    let authorization = [UInt8](repeating: 5, count: 32)
    let digest = Array(SHA256.hash(data: Data("sign me".utf8)))
    let message = Data("sign me".utf8)

    @Test func aCallWhileTheTPMIsDownFailsAndTheSameConnectionSignsOnceItIsBack() throws {
        let tpm = try SoftwareTPM()
        let connection = try TPMConnection(tcti: tpm.tcti, timeouts: Self.short)
        let blob = try connection.createKey(use: .signing, authorization: authorization)

        tpm.crash()
        let lost = try #require(throws: TPMError.self) {
            try connection.sign(digest: digest, with: blob, authorization: authorization)
        }
        // The TCTI cannot connect (TSS2_TCTI_RC_IO_ERROR): errSecNotAvailable, saying what broke.
        #expect(lost == .connectionLost(tcti: tpm.tcti, operation: "Load", code: 0xA_000A))
        #expect(lost.status == -25291)
        #expect(lost.description.hasPrefix("the connection to the TPM at \(tpm.tcti) broke (Load failed: 0xa000a)"))

        try tpm.start(port: tpm.port)
        try expectSigns(blob, on: connection)
        #expect(connection.connectionsMade == 2)
    }

    @Test func aTPMRestartedBetweenCallsFailsOneCallAndTheNextOnesWork() throws {
        let tpm = try SoftwareTPM()
        let connection = try TPMConnection(tcti: tpm.tcti, timeouts: Self.short)
        let blob = try connection.createKey(use: .signing, authorization: authorization)
        let agreeing = try connection.createKey(use: .keyAgreement, authorization: authorization)

        tpm.crash()
        try tpm.start(port: tpm.port)
        // The TCTI connects for each command, so nothing breaks on the wire: the TPM answers that the storage
        // primary this connection made is not loaded (TPM_RC_REFERENCE_H0), which only a restart (or a flush by
        // someone else) does.
        let lost = try #require(throws: TPMError.self) {
            try connection.sign(digest: digest, with: blob, authorization: authorization)
        }
        #expect(lost == .connectionLost(tcti: tpm.tcti, operation: "Load", code: 0x910))
        #expect(lost.status == -25291)

        try expectSigns(blob, on: connection)
        let peer = P256.KeyAgreement.PrivateKey()
        let point = Array(peer.publicKey.x963Representation)
        let shared = try connection.sharedSecret(
            peerX: Array(point[1...32]), peerY: Array(point[33...64]), with: agreeing, authorization: authorization)
        let expected = try peer.sharedSecretFromKeyAgreement(
            with: P256.KeyAgreement.PublicKey(x963Representation: agreeing.publicPoint))
        #expect(shared == expected.withUnsafeBytes { Array($0) })
        #expect(connection.connectionsMade == 2)
    }

    @Test func callsQueuedBehindTheCallThatMeetsTheBreakFailAtOnceAndTheNextCallWorks() throws {
        let tpm = try SoftwareTPM()
        let connection = try TPMConnection(tcti: tpm.tcti, timeouts: TPMTimeouts(creation: 20, use: 20))
        let blob = try connection.createKey(use: .signing, authorization: authorization)
        let digest = digest
        let authorization = authorization

        tpm.pause()
        let stuck = Background { try connection.sign(digest: digest, with: blob, authorization: authorization) }
        usleep(300_000)  // the second call queues behind the first, which the paused TPM holds
        let queued = Background { try connection.sign(digest: digest, with: blob, authorization: authorization) }
        usleep(300_000)
        tpm.crash()  // the connection the first call waits on is reset
        for call in [stuck, queued] {
            // Well within the calls' timeouts: the break, not a timeout, ends them.
            let result = try #require(call.result(within: 10), "a call did not return after the TPM was killed")
            let error = try #require(throws: TPMError.self) { try result.get() }
            guard case .connectionLost(let tcti, _, let code) = error else {
                Issue.record("\(error)")
                continue
            }
            #expect(tcti == tpm.tcti && code >> 16 == 0x0A)
            #expect(error.status == -25291)
        }

        try tpm.start(port: tpm.port)
        try expectSigns(blob, on: connection)
        #expect(connection.connectionsMade == 2)
    }

    /// A TPM that answers, even with a refusal, keeps the connection: a wrong auth value is the key's business.
    @Test func aRefusalOfTheTPMKeepsTheConnection() throws {
        let tpm = try SoftwareTPM()
        let connection = try TPMConnection(tcti: tpm.tcti, timeouts: Self.short)
        let blob = try connection.createKey(use: .signing, authorization: authorization)
        let refused = try #require(throws: TPMError.self) {
            try connection.sign(digest: digest, with: blob, authorization: [UInt8](repeating: 6, count: 32))
        }
        #expect(refused.status == -25293)  // TPM_RC_AUTH_FAIL
        #expect(!refused.endsConnection)
        try expectSigns(blob, on: connection)
        #expect(connection.connectionsMade == 1)
    }

    /// CryptoKit's and SecKey's key objects hold the process's connection: after the TPM restarts, each signs again
    /// after one errSecNotAvailable that says the connection broke.
    @Test func enclaveKeyObjectsSignAgainAfterTheirTPMRestarts() throws {
        try withEnclaveKeychain { _, _ in
            let tpm = try SoftwareTPM()
            let tcti = tpm.tcti
            let message = message
            let key = try TPMTimeoutTests.inTPM(tcti) { try SecureEnclave.P256.Signing.PrivateKey() }
            let secKey = try #require(TPMTimeoutTests.inTPM(tcti) { TPMTimeoutTests.makeSecKey() })

            tpm.crash()
            try tpm.start(port: tpm.port)
            do {
                try TPMTimeoutTests.signWithSecKey(secKey, message)
                Issue.record("SecKey signed over a connection to a TPM that restarted without noticing")
            } catch {
                #expect((error as NSError).code == -25291)
                #expect((error as NSError).localizedDescription.contains("the connection to the TPM at \(tcti) broke"))
            }
            try TPMTimeoutTests.signWithSecKey(secKey, message)
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))

            tpm.crash()
            try tpm.start(port: tpm.port)
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -25291)) {
                _ = try key.signature(for: message)
            }
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            try TPMTimeoutTests.signWithSecKey(secKey, message)
        }
    }

    /// A connection that worked and finds no TPM when it connects anew reports the TPM gone (errSecNotAvailable: try
    /// again later), not "no TPM" (errSecUnimplemented), which stays the answer of a first connection that never
    /// worked.
    @Test func aTPMGoneAtReconnectIsNotAvailableAndOneNeverReachedIsUnimplemented() throws {
        let tpm = try SoftwareTPM()
        let connection = try TPMConnection(tcti: tpm.tcti, timeouts: Self.short)
        let blob = try connection.createKey(use: .signing, authorization: authorization)

        tpm.crash()
        #expect(throws: TPMError.connectionLost(tcti: tpm.tcti, operation: "Load", code: 0xA_000A)) {
            try connection.sign(digest: digest, with: blob, authorization: authorization)
        }
        for _ in 0..<2 {
            let gone = try #require(throws: TPMError.self) {
                try connection.sign(digest: digest, with: blob, authorization: authorization)
            }
            #expect(gone == .wentAway(tcti: tpm.tcti))
            #expect(gone.status == -25291)
            #expect(gone.description == "the TPM at \(tpm.tcti) went away: nothing answers there any more")
        }
        let never = try #require(throws: TPMError.self) { try TPMConnection(tcti: tpm.tcti, timeouts: Self.short) }
        #expect(never == .unavailable(tcti: tpm.tcti))
        #expect(never.status == -4)

        try tpm.start(port: tpm.port)
        try expectSigns(blob, on: connection)
    }

    /// Through CryptoKit: a key of a TPM that went away fails with errSecNotAvailable, each time, and so does making
    /// a key there (the process's connection to it is kept and connects anew), rather than -4, with which the
    /// software enclave would stand in for the TPM.
    @Test func enclaveKeysOfATPMThatWentAwayAreNotAvailableRatherThanUnimplemented() throws {
        try withEnclaveKeychain { _, _ in
            let tpm = try SoftwareTPM()
            let tcti = tpm.tcti
            let message = message
            let key = try TPMTimeoutTests.inTPM(tcti) { try SecureEnclave.P256.Signing.PrivateKey() }

            tpm.crash()
            for _ in 0..<3 {
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -25291)) {
                    _ = try key.signature(for: message)
                }
            }
            TPMTimeoutTests.inTPM(tcti) {
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -25291)) {
                    _ = try SecureEnclave.P256.Signing.PrivateKey()
                }
                return ()
            }

            try tpm.start(port: tpm.port)
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            let another = try TPMTimeoutTests.inTPM(tcti) { try SecureEnclave.P256.Signing.PrivateKey() }
            #expect(another.publicKey.isValidSignature(try another.signature(for: message), for: message))
        }
    }

    /// Many callers on one connection while the TPM is killed and started again: every call returns in time with a
    /// signature or errSecNotAvailable, and once the TPM stays up every caller signs again.
    @Test func manyCallersThroughRestartsGetSignaturesOrErrSecNotAvailable() throws {
        let tpm = try SoftwareTPM()
        var connection: TPMConnection? = try TPMConnection(tcti: tpm.tcti, timeouts: TPMTimeouts(creation: 5, use: 5))
        let blob = try connection!.createKey(use: .signing, authorization: authorization)
        let publicKey = try P256.Signing.PublicKey(x963Representation: blob.publicPoint)
        let digest = digest
        let authorization = authorization
        let message = message
        let stop = Atomic<Bool>(false)
        let signed = Atomic<Int>(0)
        let unavailable = Atomic<Int>(0)
        let wrong = Mutex<[String]>([])
        let done = DispatchGroup()
        let shared = connection!
        for _ in 0..<6 {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                var lastSigned = false
                // Goes on until told to stop and its last call signed (bounded by the test's wait).
                while !stop.load(ordering: .relaxed) || !lastSigned {
                    let started = Date()
                    do {
                        let signature = try shared.sign(digest: digest, with: blob, authorization: authorization)
                        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
                        if !publicKey.isValidSignature(ecdsa, for: message) {
                            wrong.withLock { $0.append("a signature that does not verify") }
                        }
                        signed.add(1, ordering: .relaxed)
                        lastSigned = true
                    } catch {
                        lastSigned = false
                        if (error as? TPMError)?.status == -25291 {
                            unavailable.add(1, ordering: .relaxed)
                        } else {
                            wrong.withLock { $0.append("\(error)") }
                        }
                        usleep(20_000)
                    }
                    // A use waits at most 5 s to start and 5 s to run, and a reconnect at most 5 s.
                    if Date().timeIntervalSince(started) > 20 { wrong.withLock { $0.append("a call took over 20 s") } }
                }
            }
        }
        for _ in 0..<3 {
            usleep(300_000)
            tpm.crash()
            usleep(100_000)
            try tpm.start(port: tpm.port)
        }
        usleep(300_000)
        stop.store(true, ordering: .relaxed)
        // The callers hold the connection; the test lets go of its own reference while they run.
        connection = nil
        #expect(done.wait(timeout: .now() + 120) == .success, "callers still calling after 120 s")
        let problems = wrong.withLock { $0 }
        #expect(problems.count == 0, "\(problems.prefix(5))")
        #expect(signed.load(ordering: .relaxed) > 0 && unavailable.load(ordering: .relaxed) > 0)
        #expect(shared.connectionsMade > 1)
    }

    /// Signs with `blob` on `connection` and checks the signature.
    func expectSigns(_ blob: TPMKeyBlob, on connection: TPMConnection) throws {
        let signature = try connection.sign(digest: digest, with: blob, authorization: authorization)
        let publicKey = try P256.Signing.PublicKey(x963Representation: blob.publicPoint)
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: message))
    }
}
