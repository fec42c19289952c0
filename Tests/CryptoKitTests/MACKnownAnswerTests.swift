import CryptoKit
import Foundation
import Testing

// RFC 4231 (HMAC-SHA-2) and RFC 2202 (HMAC-SHA-1, HMAC-MD5) test cases; RFC 5869 appendix A (HKDF).
@Suite struct CryptoKitHMACTests {
    let key20 = SymmetricKey(data: [UInt8](repeating: 0x0b, count: 20))

    @Test func rfc4231TestCase1() {
        let data = Data("Hi There".utf8)
        #expect(
            hexText(HMAC<SHA256>.authenticationCode(for: data, using: key20))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            hexText(HMAC<SHA384>.authenticationCode(for: data, using: key20))
                == "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6")
        #expect(
            hexText(HMAC<SHA512>.authenticationCode(for: data, using: key20))
                == "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854")
    }

    @Test func rfc4231ShortAndLongKeys() {
        #expect(
            hexText(
                HMAC<SHA256>.authenticationCode(
                    for: Data("what do ya want for nothing?".utf8), using: SymmetricKey(data: Data("Jefe".utf8))))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let longKey = SymmetricKey(data: [UInt8](repeating: 0xaa, count: 131))
        let message = Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(
            hexText(HMAC<SHA256>.authenticationCode(for: message, using: longKey))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(
            hexText(HMAC<SHA512>.authenticationCode(for: message, using: longKey))
                == "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
                + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598")
    }

    @Test func rfc2202TestCase1() {
        #expect(
            hexText(HMAC<Insecure.SHA1>.authenticationCode(for: Data("Hi There".utf8), using: key20))
                == "b617318655057264e28bc0b6fb378c8ef146be00")
        let key16 = SymmetricKey(data: [UInt8](repeating: 0x0b, count: 16))
        #expect(
            hexText(HMAC<Insecure.MD5>.authenticationCode(for: Data("Hi There".utf8), using: key16))
                == "9294727a3638bb1c13f48ef8158bfc9d")
    }

    @Test func incrementalValidationAndPrinting() {
        var authenticator = HMAC<SHA256>(key: key20)
        authenticator.update(data: Data("Hi ".utf8))
        authenticator.update(data: Data("There".utf8))
        let code = authenticator.finalize()
        #expect(code == HMAC<SHA256>.authenticationCode(for: Data("Hi There".utf8), using: key20))
        #expect(HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data("Hi There".utf8), using: key20))
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data("Hi there".utf8), using: key20))
        #expect(HMAC<SHA256>.isValidAuthenticationCode(Data(code), authenticating: Data("Hi There".utf8), using: key20))
        #expect(
            !HMAC<SHA256>.isValidAuthenticationCode(
                Data(code).dropLast(), authenticating: Data("Hi There".utf8), using: key20))
        #expect(code.byteCount == 32)
        #expect(
            code.description
                == "HMAC with SHA256: b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(code == Data(code))
    }
}

@Suite struct CryptoKitHKDFTests {
    let ikm = SymmetricKey(data: [UInt8](repeating: 0x0b, count: 22))

    @Test func rfc5869TestCase1() {
        let salt = hexBytes("000102030405060708090a0b0c")
        let info = hexBytes("f0f1f2f3f4f5f6f7f8f9")
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        #expect(hexText(prk) == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        let okm = "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        #expect(
            HKDF<SHA256>.expand(pseudoRandomKey: prk, info: info, outputByteCount: 42)
                .withUnsafeBytes { hexText($0) } == okm)
        #expect(
            HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: 42)
                .withUnsafeBytes { hexText($0) } == okm)
    }

    @Test func rfc5869TestCase3WithoutSaltOrInfo() {
        let okm = "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
        #expect(
            hexText(HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: Data?.none))
                == "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04")
        #expect(
            HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, outputByteCount: 42).withUnsafeBytes { hexText($0) }
                == okm)
        #expect(
            HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: Data(), outputByteCount: 42)
                .bitCount == 42 * 8)
    }

    @Test func matchesOpenSSLForSHA512() throws {
        let openssl = try OpenSSLCommand()
        let derived = HKDF<SHA512>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data("input key".utf8)), salt: Data("salt".utf8),
            info: Data("info".utf8), outputByteCount: 100)
        let output = try openssl.run([
            "kdf", "-keylen", "100", "-kdfopt", "digest:SHA512", "-kdfopt", "key:input key", "-kdfopt", "salt:salt",
            "-kdfopt", "info:info", "HKDF",
        ])
        let expected = String(decoding: output, as: UTF8.self).filter { $0.isHexDigit }.lowercased()
        #expect(derived.withUnsafeBytes { hexText($0) } == expected)
    }
}

@Suite struct CryptoKitSymmetricKeyTests {
    @Test func sizesAndEquality() {
        #expect(SymmetricKey(size: .bits128).bitCount == 128)
        #expect(SymmetricKey(size: .bits192).bitCount == 192)
        #expect(SymmetricKey(size: .bits256).bitCount == 256)
        #expect(SymmetricKey(size: SymmetricKeySize(bitCount: 512)).bitCount == 512)
        let key = SymmetricKey(size: .bits256)
        #expect(key == SymmetricKey(data: key.withUnsafeBytes { Data($0) }))
        #expect(key != SymmetricKey(size: .bits256))
        #expect(SymmetricKey(data: [1, 2, 3]).withUnsafeBytes { Array($0) } == [1, 2, 3])
    }

    @Test func descriptionNeverShowsTheBytes() {
        let key = SymmetricKey(data: [UInt8](repeating: 0xAB, count: 32))
        #expect(!"\(key)".lowercased().contains("abab"))
        #expect(!String(reflecting: key).lowercased().contains("abab"))
        // By reflection, whatever description the app gives the type (AppStyleCryptography gives one).
        var dumped = ""
        dump(key, to: &dumped)
        #expect(dumped.contains("redacted"))
        #expect(!dumped.lowercased().contains("abab"))
    }
}
