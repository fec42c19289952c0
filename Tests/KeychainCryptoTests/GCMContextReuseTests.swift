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
            #expect(
                try AESGCM.open(boxes[index], key: key, authenticating: [UInt8(index)]).bytes
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
            #expect(throws: CryptoError.authenticationFailure) {
                try AESGCM.open(altered, key: key, authenticating: [])
            }
            #expect(try AESGCM.open(box, key: key, authenticating: []).bytes == Array("kept".utf8))
        }
    }

    @Test func aBoxThatDoesNotAuthenticateLeavesItsContextForTheNextOperation() throws {
        let key = try SystemRandom.key()
        let box = try AESGCM.seal(Array("kept".utf8), key: key, authenticating: [])
        var altered = box
        altered[altered.count - 1] ^= 1
        AESGCM.forgetKeySchedules()
        #expect(throws: CryptoError.authenticationFailure) { try AESGCM.open(altered, key: key, authenticating: []) }
        #expect(GCMContexts.shared.idleCount == 1)
        #expect(try AESGCM.open(box, key: key, authenticating: []).bytes == Array("kept".utf8))
        #expect(GCMContexts.shared.idleCount == 1)
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

    @Test func aKeyScheduleLeftInAContextOpensNothingElse() throws {
        // A context that kept one key's schedule is keyed afresh by the next operation: another key fails on that
        // key's box, and the kept key still opens only its own.
        let kept = try SystemRandom.key()
        let other = try SystemRandom.key()
        let keptBox = try AESGCM.seal(Array("kept".utf8), key: kept, authenticating: [1])
        let otherBox = try AESGCM.seal(Array("other".utf8), key: other, authenticating: [1])
        for _ in 0..<3 {
            #expect(
                try AESGCM.open(keptBox, key: kept, authenticating: [1], keyScheduleMayStay: true).bytes
                    == Array("kept".utf8))
            #expect(throws: CryptoError.authenticationFailure) {
                try AESGCM.open(keptBox, key: other, authenticating: [1], keyScheduleMayStay: true)
            }
            #expect(throws: CryptoError.authenticationFailure) {
                try AESGCM.open(otherBox, key: kept, authenticating: [1])
            }
            #expect(try AESGCM.open(otherBox, key: other, authenticating: [1]).bytes == Array("other".utf8))
        }
    }

    @Test func forgettingKeySchedulesFreesTheIdleContexts() throws {
        let key = try SystemRandom.key()
        let box = try AESGCM.seal(Array("x".utf8), key: key, authenticating: [])
        _ = try AESGCM.open(box, key: key, authenticating: [], keyScheduleMayStay: true)
        #expect(GCMContexts.shared.idleCount >= 1)
        AESGCM.forgetKeySchedules()
        #expect(GCMContexts.shared.idleCount == 0)
        // Later operations make and keep contexts again.
        #expect(try AESGCM.open(box, key: key, authenticating: []).bytes == Array("x".utf8))
        #expect(GCMContexts.shared.idleCount >= 1)
    }
}
