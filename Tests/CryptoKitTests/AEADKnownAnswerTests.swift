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
