import CryptoKit
import Foundation
import Testing

// The GCM specification's test cases (McGrew and Viega, the vectors NIST SP 800-38D cites), RFC 8439 section
// 2.8.2 for ChaCha20-Poly1305, RFC 3394 section 4 for key wrap.
@Suite struct CryptoKitAESGCMTests {
    static let key256 = hexBytes("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
    static let nonce = hexBytes("cafebabefacedbaddecaf888")
    static let aad = hexBytes("feedfacedeadbeeffeedfacedeadbeefabaddad2")
    static let plaintext64 = hexBytes(
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
            + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255")
    static let ciphertext64 = hexBytes(
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
            + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad")

    @Test func testCase15WithoutAssociatedData() throws {
        let box = try AES.GCM.seal(
            Self.plaintext64, using: SymmetricKey(data: Self.key256), nonce: AES.GCM.Nonce(data: Self.nonce))
        #expect(Array(box.ciphertext) == Self.ciphertext64)
        #expect(hexText(box.tag) == "b094dac5d93471bdec1a502270e3cc6c")
        #expect(box.combined == Data(Self.nonce + Self.ciphertext64 + hexBytes("b094dac5d93471bdec1a502270e3cc6c")))
        #expect(Array(try AES.GCM.open(box, using: SymmetricKey(data: Self.key256))) == Self.plaintext64)
    }

    @Test func testCase16WithAssociatedData() throws {
        let key = SymmetricKey(data: Self.key256)
        let plaintext = Array(Self.plaintext64[0..<60])
        let box = try AES.GCM.seal(
            plaintext, using: key, nonce: AES.GCM.Nonce(data: Self.nonce), authenticating: Self.aad)
        #expect(Array(box.ciphertext) == Array(Self.ciphertext64[0..<60]))
        #expect(hexText(box.tag) == "76fc6ece0f4e1768cddf8853bb2d551b")
        let reopened = try AES.GCM.SealedBox(combined: box.combined!)
        #expect(Array(try AES.GCM.open(reopened, using: key, authenticating: Self.aad)) == plaintext)
        #expect(throws: CryptoKitError.authenticationFailure) {
            try AES.GCM.open(reopened, using: key, authenticating: Self.aad.dropLast())
        }
    }

    @Test func testCase4With128BitKey() throws {
        let key = SymmetricKey(data: hexBytes("feffe9928665731c6d6a8f9467308308"))
        let box = try AES.GCM.seal(
            Array(Self.plaintext64[0..<60]), using: key, nonce: AES.GCM.Nonce(data: Self.nonce),
            authenticating: Self.aad)
        #expect(
            hexText(box.ciphertext)
                == "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                + "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091")
        #expect(hexText(box.tag) == "5bc94fbc3221a5db94fae95ae7121a47")
    }

    @Test func testCases13And14ZeroKey() throws {
        let key = SymmetricKey(data: [UInt8](repeating: 0, count: 32))
        let nonce = try AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 12))
        #expect(hexText(try AES.GCM.seal(Data(), using: key, nonce: nonce).tag) == "530f8afbc74536b9a963b4f1c4cb738b")
        let box = try AES.GCM.seal([UInt8](repeating: 0, count: 16), using: key, nonce: nonce)
        #expect(hexText(box.ciphertext) == "cea7403d4d606b6e074ec5d3baf39d18")
        #expect(hexText(box.tag) == "d0d1c8a799996bf0265b98b5d48ab919")
    }

    @Test func rejectsTamperingWrongKeysAndBadSizes() throws {
        let key = SymmetricKey(size: .bits256)
        let box = try AES.GCM.seal(Data("secret".utf8), using: key)
        #expect(box.combined!.count == 12 + 6 + 16)
        var altered = box.combined!
        altered[13] ^= 1
        #expect(throws: CryptoKitError.authenticationFailure) {
            try AES.GCM.open(try AES.GCM.SealedBox(combined: altered), using: key)
        }
        #expect(throws: CryptoKitError.authenticationFailure) {
            try AES.GCM.open(box, using: SymmetricKey(size: .bits256))
        }
        #expect(throws: CryptoKitError.incorrectKeySize) {
            try AES.GCM.seal(Data("x".utf8), using: SymmetricKey(data: [UInt8](repeating: 1, count: 20)))
        }
        #expect(throws: CryptoKitError.incorrectParameterSize) { try AES.GCM.SealedBox(combined: Data(count: 27)) }
        #expect(throws: CryptoKitError.incorrectParameterSize) { try AES.GCM.Nonce(data: Data(count: 11)) }
        #expect(throws: CryptoKitError.incorrectParameterSize) {
            try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(), ciphertext: Data(), tag: Data(count: 15))
        }
    }

    @Test func longNoncesAndRebuiltBoxes() throws {
        let key = SymmetricKey(size: .bits192)
        let nonce = try AES.GCM.Nonce(data: Data(repeating: 7, count: 60))
        let box = try AES.GCM.seal(Data("message".utf8), using: key, nonce: nonce, authenticating: Data("ad".utf8))
        #expect(box.combined == nil)
        #expect(Array(box.nonce) == Array(nonce))
        let rebuilt = try AES.GCM.SealedBox(nonce: box.nonce, ciphertext: box.ciphertext, tag: box.tag)
        #expect(try AES.GCM.open(rebuilt, using: key, authenticating: Data("ad".utf8)) == Data("message".utf8))
    }

    /// Nonces longer than OpenSSL's GCM takes through EVP (128 bytes): Wycheproof's `aes_gcm_test.json` vectors
    /// with 2056-bit IVs (tcId 268 and 276), and one with additional data and several blocks, whose expected
    /// values come from an independent implementation (PyCryptodome).
    @Test func noncesLongerThan128Bytes() throws {
        let vectors: [(key: String, nonce: String, message: String, ciphertext: String, tag: String)] = [
            (
                "eac3f28cd937ff29eb6158a3721b5145",
                "6fd260bba87339539c37dc68fdc3656f63c83028cb8adcb531085e98bd570c6b735d0cc4b4b924696000a2d893621ae64d"
                    + "cce992b562b89a5285643a08febccbc52243cbfc8d45212e047b00c87c6b6bf175f8bb678ec55c1091315cbecb8b8570"
                    + "0f4a4653623fb78e63cfff7d6235e48e9832c9f0716d10992fc5b0ad4e6972bbeeb1ad670cd7ec8fac82e07ea5a64f97"
                    + "61a39714aaa73affd2cb190a7ac2df5e5dcea6812ae2c872c7ac70453c5e7ec4d0b5b18c6ff3bfb9ae15fea44cf39261"
                    + "5b80034edae596b8821f97fca58d167fb44a093b0c009a0bd5631355b0cb25d93ba9b79b006301d99db657e801933fc2"
                    + "764a0ce650eaf5a1299efe60cb53b634",
                "098912a302773377b9c26ac3", "e3be947153a26a3a54e3015c", "fd042bdde22f67c4fd298d5dc0867606"
            ),
            (
                "3bc3bf39d0d5ffd94cca2b45c678a2d049151ed2babc713be53cb66f54a16337",
                "92c2cee7e9138b186da51f146fb21fd5b491f1a19eef61d4ed14ce6b21b04fdb6ff8ebb60fddc55926e7bda2a8f35c610b"
                    + "b795232412739d6c2d74458ef5a1a1cde9bf17e47e3b00db0b0504d56dc8b8d3de23f7c3a5d52e8d0aab1e64405aaa85"
                    + "2ec2dd667ed9c1fd8dc1fdbbc8712c7a38f30faeab594f33897b41b1720f3c2f954ed91ca450d82c3dcd35858c608ad4"
                    + "2f36832e56b04821a132f72e0da7b62cbd3925250f64fbb3f5c4783495893097adc09a32d776e04bf72558d37830b372"
                    + "341f6536d8ee9df4a82e4074e7774ab6917a04fa8c499eb4b46a92def365da8b5eb1e0b438779507d1f5272a6e8629a3"
                    + "f9c7bd4862c5691ee8b56bfe292deb4e",
                "8125ee7637d7d0e03bbacf35", "5496ae94c3322ebf959ea9a9", "70717cc00fd1ffa59bb04329226a0c0a"
            ),
        ]
        for vector in vectors {
            let key = SymmetricKey(data: hexBytes(vector.key))
            let nonce = try AES.GCM.Nonce(data: hexBytes(vector.nonce))
            let box = try AES.GCM.seal(hexBytes(vector.message), using: key, nonce: nonce)
            #expect(Array(box.ciphertext) == hexBytes(vector.ciphertext))
            #expect(Array(box.tag) == hexBytes(vector.tag))
            #expect(box.combined == nil)
            #expect(try Array(AES.GCM.open(box, using: key)) == hexBytes(vector.message))
        }

        let key = SymmetricKey(data: Array(0..<32) as [UInt8])
        let nonce = try AES.GCM.Nonce(data: (0..<300).map { UInt8(($0 * 7 + 3) % 256) })
        let aad = Data("associated data that spans more than one block".utf8)
        let message = (0..<100).map { UInt8(($0 * 13 + 5) % 256) }
        let box = try AES.GCM.seal(message, using: key, nonce: nonce, authenticating: aad)
        #expect(
            Array(box.ciphertext)
                == hexBytes(
                    "8c36a81457e6b22d848859a2945d79414df6103ebeb13bdb2680fae000707a6452804db13dce6f37139c13e43756c793"
                        + "7e70f262453e689d3f33d5e3ab5ab3aa2928a651f4551ec27905c8ddd2e9bc14cdfd3faf011e82c3d98a57b88f847da6"
                        + "09bf920a"))
        #expect(Array(box.tag) == hexBytes("0f22d4319977ff6bc817fd505e84e0cf"))
        #expect(try Array(AES.GCM.open(box, using: key, authenticating: aad)) == message)
        // Any change is refused, as with a short nonce.
        #expect(throws: CryptoKitError.authenticationFailure) {
            try AES.GCM.open(box, using: key, authenticating: Data("other".utf8))
        }
        var tampered = Array(box.ciphertext)
        tampered[99] ^= 1
        let changed = try AES.GCM.SealedBox(nonce: nonce, ciphertext: tampered, tag: box.tag)
        #expect(throws: CryptoKitError.authenticationFailure) {
            try AES.GCM.open(changed, using: key, authenticating: aad)
        }
        // At the edge: 128 bytes go through EVP, 129 through the long-nonce path; both open what they seal.
        for count in [128, 129] {
            let edge = try AES.GCM.Nonce(data: [UInt8](repeating: 9, count: count))
            let sealed = try AES.GCM.seal(message, using: key, nonce: edge)
            #expect(try Array(AES.GCM.open(sealed, using: key)) == message)
        }
    }

    @Test func freshNoncesDiffer() throws {
        let key = SymmetricKey(size: .bits128)
        #expect(
            try AES.GCM.seal(Data([1]), using: key).nonce.withUnsafeBytes { Data($0) }
                != (try AES.GCM.seal(Data([1]), using: key).nonce.withUnsafeBytes { Data($0) }))
    }
}

@Suite struct CryptoKitChaChaPolyTests {
    static let key = hexBytes("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
    static let nonce = hexBytes("070000004041424344454647")
    static let aad = hexBytes("50515253c0c1c2c3c4c5c6c7")
    static let plaintext = Data(
        ("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
            + "sunscreen would be it.").utf8)
    static let ciphertext =
        "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
        + "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
        + "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
        + "3ff4def08e4b7a9de576d26586cec64b6116"

    @Test func rfc8439Section282() throws {
        let key = SymmetricKey(data: Self.key)
        let box = try ChaChaPoly.seal(
            Self.plaintext, using: key, nonce: ChaChaPoly.Nonce(data: Self.nonce), authenticating: Self.aad)
        #expect(hexText(box.ciphertext) == Self.ciphertext)
        #expect(hexText(box.tag) == "1ae10b594f09e26a7e902ecbd0600691")
        #expect(box.combined == Data(Self.nonce) + box.ciphertext + box.tag)
        let reopened = try ChaChaPoly.SealedBox(combined: box.combined)
        #expect(try ChaChaPoly.open(reopened, using: key, authenticating: Self.aad) == Self.plaintext)
        #expect(throws: CryptoKitError.authenticationFailure) { try ChaChaPoly.open(reopened, using: key) }
    }

    @Test func rejectsBadSizes() {
        #expect(throws: CryptoKitError.incorrectKeySize) {
            try ChaChaPoly.seal(Data([1]), using: SymmetricKey(size: .bits128))
        }
        #expect(throws: CryptoKitError.incorrectParameterSize) { try ChaChaPoly.Nonce(data: Data(count: 13)) }
        #expect(throws: CryptoKitError.incorrectParameterSize) { try ChaChaPoly.SealedBox(combined: Data(count: 27)) }
    }
}

@Suite struct CryptoKitKeyWrapTests {
    // RFC 3394 sections 4.1 (128-bit KEK, 128-bit key), 4.3 (256-bit KEK, 128-bit key) and 4.6.
    @Test func rfc3394KnownAnswers() throws {
        let kek128 = SymmetricKey(data: hexBytes("000102030405060708090A0B0C0D0E0F"))
        let key128 = SymmetricKey(data: hexBytes("00112233445566778899AABBCCDDEEFF"))
        let wrapped = try AES.KeyWrap.wrap(key128, using: kek128)
        #expect(Array(wrapped) == hexBytes("1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"))
        #expect(try AES.KeyWrap.unwrap(wrapped, using: kek128) == key128)
        let kek256 = SymmetricKey(data: hexBytes("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"))
        #expect(
            Array(try AES.KeyWrap.wrap(key128, using: kek256))
                == hexBytes("64E8C3F9CE0F5BA263E9777905818A2A93C8191E7D6E8AE7"))
        let key256 = SymmetricKey(data: hexBytes("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F"))
        #expect(
            Array(try AES.KeyWrap.wrap(key256, using: kek256))
                == hexBytes("28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21"))
    }

    @Test func unwrapFailures() throws {
        let kek = SymmetricKey(size: .bits256)
        var wrapped = try AES.KeyWrap.wrap(SymmetricKey(size: .bits256), using: kek)
        #expect(throws: CryptoKitError.unwrapFailure) {
            try AES.KeyWrap.unwrap(wrapped, using: SymmetricKey(size: .bits256))
        }
        wrapped[3] ^= 0x10
        #expect(throws: CryptoKitError.unwrapFailure) { try AES.KeyWrap.unwrap(wrapped, using: kek) }
        #expect(throws: CryptoKitError.unwrapFailure) { try AES.KeyWrap.unwrap(Data(count: 20), using: kek) }
        #expect(throws: CryptoKitError.incorrectKeySize) {
            try AES.KeyWrap.wrap(SymmetricKey(size: .bits256), using: SymmetricKey(data: Data(count: 20)))
        }
    }
}

@Suite struct CryptoKitSealedBoxPartsTests {
    // Parts of a sealed box index from zero, as any Data a caller is handed.
    @Test func partsIndexFromZero() throws {
        let box = try AES.GCM.seal(Data("secret".utf8), using: SymmetricKey(size: .bits256))
        #expect(box.ciphertext.startIndex == 0 && box.tag.startIndex == 0)
        #expect(box.ciphertext[0] == box.combined![12])
        #expect(box.tag[0] == box.combined![18])
        let chacha = try ChaChaPoly.seal(Data("secret".utf8), using: SymmetricKey(size: .bits256))
        #expect(chacha.ciphertext[0] == chacha.combined[12])
        let reopened = try AES.GCM.SealedBox(combined: box.combined!.dropFirst(0))
        #expect(reopened.nonce.withUnsafeBytes { Data($0) } == box.combined!.prefix(12))
    }
}
