import Testing

@testable import KeychainCrypto

/// Several boxes sealed under one key in one call (an item's attributes and its secret): each must be what a
/// seal of its own would give, a box that opens only with its own additional data, under a nonce of its own.
@Suite struct GCMSealManyTests {
    private let parts: [(plaintext: [UInt8], additionalData: [UInt8])] = [
        (Array("attributes".utf8), Array("metadata".utf8)),
        (Array("correct horse battery staple".utf8), Array("secret".utf8)),
        ([], Array("empty".utf8)),
    ]

    @Test func eachBoxOpensWithItsOwnAdditionalDataOnly() throws {
        let key = try SystemRandom.key()
        let boxes = try AESGCM.seal(parts, key: key)
        #expect(boxes.count == parts.count)
        for (index, box) in boxes.enumerated() {
            #expect(box.count == parts[index].plaintext.count + AESGCM.overhead)
            #expect(
                try AESGCM.open(box, key: key, authenticating: parts[index].additionalData).bytes
                    == parts[index].plaintext)
            let other = parts[(index + 1) % parts.count].additionalData
            #expect(throws: CryptoError.authenticationFailure) {
                try AESGCM.open(box, key: key, authenticating: other)
            }
        }
    }

    @Test func everyBoxHasANonceOfItsOwn() throws {
        let key = try SystemRandom.key()
        let boxes = try AESGCM.seal(parts, key: key)
        let nonces = Set(boxes.map { Array($0.prefix(AESGCM.nonceSize)) })
        #expect(nonces.count == boxes.count)
    }

    @Test func aBoxOpensOnlyUnderItsKeyAndNothingIsLeftForTheNextSeal() throws {
        let key = try SystemRandom.key()
        let other = try SystemRandom.key()
        let boxes = try AESGCM.seal(parts, key: key)
        #expect(throws: CryptoError.authenticationFailure) {
            try AESGCM.open(boxes[1], key: other, authenticating: parts[1].additionalData)
        }
        let next = try AESGCM.seal(Array("next".utf8), key: other, authenticating: [])
        #expect(try AESGCM.open(next, key: other, authenticating: []).bytes == Array("next".utf8))
    }

    @Test func noPartsGiveNoBoxes() throws {
        #expect(try AESGCM.seal([], key: try SystemRandom.key()).isEmpty)
    }
}
