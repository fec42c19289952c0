import Foundation
import KeychainTestSupport
import Synchronization
import Testing

@testable import CryptoKit
@testable import TPMEnclave

// keychain-lint:ignore-file KL603 -- these tests create keys in the software TPM they start (SoftwareTPM)

/// An ECDH shared secret made on a connection's worker thread reaches the caller as an array that only the caller
/// holds, so the caller's wipe in place zeroes the one copy: the worker may still hold its result when the caller
/// wakes, and an array shared with it would make the wipe hit a copy and leave the secret in the worker's.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
struct TPMSharedSecretHandOverTests {
    @Test func theCallersWipeZeroesTheOnlyCopyOfTheSecret() throws {
        let tpm = try SoftwareTPM()
        let connection = try TPMConnection(tcti: tpm.tcti, timeouts: TPMTimeouts(creation: 10, use: 10))
        let authorization = [UInt8](repeating: 7, count: 32)
        let blob = try connection.createKey(use: .keyAgreement, authorization: authorization)
        let peer = Array(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        // Busy threads make the worker's thread lag behind the caller, as on a loaded machine.
        let spinning = Atomic<Bool>(true)
        for _ in 0..<3 {
            Thread.detachNewThread {
                var count = 0
                while spinning.load(ordering: .relaxed) { count &+= 1 }
            }
        }
        defer { spinning.store(false, ordering: .relaxed) }
        var wipesOfACopy = 0
        for _ in 0..<200 {
            var secret = try connection.sharedSecret(
                peerX: Array(peer[1...32]), peerY: Array(peer[33...64]), with: blob, authorization: authorization)
            let before = secret.withUnsafeBufferPointer { $0.baseAddress }
            // A wipe in place writes to the array's own buffer unless it is shared (copy on write).
            secret.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
            if secret.withUnsafeBufferPointer({ $0.baseAddress }) != before { wipesOfACopy += 1 }
        }
        #expect(wipesOfACopy == 0)
    }
}
