import Testing

@testable import KeychainCrypto

/// AES-GCM contexts are kept between operations (``GCMContexts``): each operation must still see only its own
/// key, nonce and additional data, whatever the context did before.
@Suite struct GCMContextReuseTests {
    @Test func boxesUnderManyKeysOpenOnlyUnderTheirOwn() throws {
        let keys = try (0..<6).map { _ in try SystemRandom.key() }
        var boxes: [[UInt8]] = []
        for (index, key) in keys.enumerated() {
            boxes.append(try AESGCM.seal(Array("secret \(index)".utf8), key: key, authenticating: [UInt8(index)]))
        }
        for (index, key) in keys.enumerated() {
            #expect(try AESGCM.open(boxes[index], key: key, authenticating: [UInt8(index)]).bytes
                == Array("secret \(index)".utf8))
            // The next key, or the right key with other additional data, fails: nothing of the last open remains.
            let other = keys[(index + 1) % keys.count]
            #expect(throws: CryptoError.authenticationFailure) {
                try AESGCM.open(boxes[index], key: other, authenticating: [UInt8(index)])
            }
            #expect(throws: CryptoError.authenticationFailure) {
                try AESGCM.open(boxes[index], key: key, authenticating: [UInt8(index), 0])
            }
        }
    }

    @Test func aFailedOpenLeavesTheNextOperationIntact() throws {
        let key = try SystemRandom.key()
        let box = try AESGCM.seal(Array("kept".utf8), key: key, authenticating: [])
        var altered = box
        altered[AESGCM.nonceSize] ^= 1
        for _ in 0..<3 {
            #expect(throws: CryptoError.authenticationFailure) { try AESGCM.open(altered, key: key, authenticating: []) }
            #expect(try AESGCM.open(box, key: key, authenticating: []).bytes == Array("kept".utf8))
        }
    }

    @Test func concurrentOperationsEachUseTheirOwnContext() async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let key = try SystemRandom.key()
                    for round in 0..<200 {
                        let plaintext = Array("task \(task) round \(round)".utf8)
                        let box = try AESGCM.seal(plaintext, key: key, authenticating: [UInt8(task)])
                        guard try AESGCM.open(box, key: key, authenticating: [UInt8(task)]).bytes == plaintext else {
                            return false
                        }
                    }
                    return true
                }
            }
            for try await intact in group { #expect(intact) }
        }
    }
}
