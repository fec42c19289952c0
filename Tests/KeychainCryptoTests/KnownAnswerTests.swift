import Testing
@testable import KeychainCrypto

func hex(_ string: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = string.startIndex
    while index < string.endIndex {
        let next = string.index(index, offsetBy: 2)
        bytes.append(UInt8(string[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

@Suite struct AESGCMTests {
    // NIST GCM specification, test cases 13 and 14 (256-bit key, zero key and IV).
    @Test func emptyPlaintextKnownAnswer() throws {
        let key = SecureBytes([UInt8](repeating: 0, count: 32))
        let box = try [UInt8]().withUnsafeBytes {
            try AESGCM.seal($0, key: key, authenticating: [], nonce: [UInt8](repeating: 0, count: 12))
        }
        #expect(Array(box[12...]) == hex("530f8afbc74536b9a963b4f1c4cb738b"))
    }

    @Test func oneBlockKnownAnswer() throws {
        let key = SecureBytes([UInt8](repeating: 0, count: 32))
        let box = try [UInt8](repeating: 0, count: 16).withUnsafeBytes {
            try AESGCM.seal($0, key: key, authenticating: [], nonce: [UInt8](repeating: 0, count: 12))
        }
        #expect(Array(box[12..<28]) == hex("cea7403d4d606b6e074ec5d3baf39d18"))
        #expect(Array(box[28...]) == hex("d0d1c8a799996bf0265b98b5d48ab919"))
        #expect(try AESGCM.open(box, key: key, authenticating: []).bytes == [UInt8](repeating: 0, count: 16))
    }

    @Test func roundTripWithAssociatedData() throws {
        let key = try SystemRandom.key()
        let box = try AESGCM.seal(Array("token".utf8), key: key, authenticating: [1, 2, 3])
        #expect(box.count == 5 + AESGCM.overhead)
        #expect(try AESGCM.open(box, key: key, authenticating: [1, 2, 3]).bytes == Array("token".utf8))
    }

    @Test func rejectsAlteredDataOrContext() throws {
        let key = try SystemRandom.key()
        var box = try AESGCM.seal(Array("token".utf8), key: key, authenticating: [9])
        #expect(throws: CryptoError.authenticationFailure) { try AESGCM.open(box, key: key, authenticating: [8]) }
        #expect(throws: CryptoError.authenticationFailure) {
            try AESGCM.open(box, key: try SystemRandom.key(), authenticating: [9])
        }
        box[13] ^= 1
        #expect(throws: CryptoError.authenticationFailure) { try AESGCM.open(box, key: key, authenticating: [9]) }
        #expect(throws: CryptoError.authenticationFailure) { try AESGCM.open([1, 2], key: key, authenticating: []) }
    }

    @Test func nonceIsFreshEachTime() throws {
        let key = try SystemRandom.key()
        let first = try AESGCM.seal([1], key: key, authenticating: [])
        let second = try AESGCM.seal([1], key: key, authenticating: [])
        #expect(first != second)
    }
}

@Suite struct AESKeyWrapTests {
    // RFC 3394 section 4.6: 256 bits of key data with a 256-bit KEK.
    @Test func rfc3394KnownAnswer() throws {
        let kek = SecureBytes(hex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"))
        let key = SecureBytes(hex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F"))
        let wrapped = try AESKeyWrap.wrap(key, kek: kek)
        #expect(wrapped == hex("28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21"))
        #expect(try AESKeyWrap.unwrap(wrapped, kek: kek).bytes == key.bytes)
    }

    @Test func rejectsWrongKEKAndDamage() throws {
        let kek = try SystemRandom.key()
        var wrapped = try AESKeyWrap.wrap(try SystemRandom.key(), kek: kek)
        #expect(throws: CryptoError.authenticationFailure) { try AESKeyWrap.unwrap(wrapped, kek: try SystemRandom.key()) }
        wrapped[0] ^= 0x80
        #expect(throws: CryptoError.authenticationFailure) { try AESKeyWrap.unwrap(wrapped, kek: kek) }
        #expect(throws: CryptoError.authenticationFailure) { try AESKeyWrap.unwrap([1, 2, 3], kek: kek) }
    }
}

@Suite struct HMACAndKDFTests {
    // RFC 4231 test case 1.
    @Test func hmacKnownAnswer() throws {
        let mac = try HMACSHA256(key: SecureBytes([UInt8](repeating: 0x0b, count: 20)))
        #expect(try mac.authenticate(Array("Hi ".utf8), Array("There".utf8))
            == hex("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"))
        // The keyed template is reusable.
        #expect(try mac.authenticate(Array("Hi There".utf8))
            == hex("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"))
    }

    // RFC 5869 test case 1.
    @Test func hkdfKnownAnswer() throws {
        let okm = try KeyDerivation.hkdfSHA256(
            key: SecureBytes([UInt8](repeating: 0x0b, count: 22)), salt: hex("000102030405060708090a0b0c"),
            info: hex("f0f1f2f3f4f5f6f7f8f9"), count: 42)
        #expect(okm.bytes == hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
    }

    // RFC 5869 test case 3: no salt (a block of zeros) and no info.
    @Test func hkdfKnownAnswerWithoutSaltOrInfo() throws {
        let okm = try KeyDerivation.hkdfSHA256(
            key: SecureBytes([UInt8](repeating: 0x0b, count: 22)), salt: [], info: [], count: 42)
        #expect(okm.bytes == hex("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
    }

    @Test func sha256KnownAnswer() throws {
        #expect(try SHA256.hash(Array("abc".utf8)) == hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
    }
}

@Suite struct SecureBytesTests {
    @Test func descriptionRedactsAndComparisonIsExact() throws {
        let secret = SecureBytes(Array("hunter2".utf8))
        #expect(!"\(secret)".contains("hunter2"))
        #expect(secret.constantTimeEquals(SecureBytes(Array("hunter2".utf8))))
        #expect(!secret.constantTimeEquals(SecureBytes(Array("hunter3".utf8))))
        #expect(!secret.constantTimeEquals(SecureBytes(Array("hunter".utf8))))
        #expect(try SystemRandom.bytes(32) != SystemRandom.bytes(32))
    }
}

@Suite struct PBKDF2Tests {
    // RFC 7914 section 11: PBKDF2-HMAC-SHA256, P = "passwd", S = "salt", c = 1, dkLen = 64.
    @Test func rfc7914KnownAnswer() throws {
        let key = try KeyDerivation.pbkdf2SHA256(
            password: SecureBytes(Array("passwd".utf8)), salt: Array("salt".utf8), iterations: 1, count: 64)
        #expect(key.bytes == hex(
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"))
    }
}
