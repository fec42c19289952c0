import Foundation
import Testing

@testable import KeychainCrypto

/// The primitives against published vectors, read from `Vectors/` (see `VectorFile`).
@Suite struct KnownAnswerTests {
    @Test func everyVectorFileHasVectors() {
        for name in ["hmac-sha256.txt", "hkdf-sha256.txt", "aes256-gcm.txt", "aes-key-wrap.txt", "pbkdf2-sha256.txt"] {
            #expect(VectorFile.load(name).count >= 2, "\(name)")
        }
    }

    @Test(arguments: VectorFile.load("hmac-sha256.txt"))
    func hmacSHA256(_ vector: VectorFile.Vector) throws {
        let expected = try vector.bytes("mac")
        let mac = try HMACSHA256(key: SecureBytes(vector.bytes("key")))
        let data = try vector.bytes("data")
        #expect(try mac.authenticate(message: data, truncatedTo: expected.count) == expected)
        // The keyed template is reusable, and a prefix absorbed once gives the same MAC.
        #expect(try mac.authenticate(message: data, truncatedTo: expected.count) == expected)
        let split = data.count / 2
        let prefixed = try mac.prefixed(with: Array(data[..<split]))
        #expect(try prefixed.authenticate(message: Array(data[split...]), truncatedTo: expected.count) == expected)
    }

    /// The variant for keys writes the same MAC straight into wiped memory.
    @Test(arguments: VectorFile.load("hmac-sha256.txt"))
    func hmacSHA256IntoSecureBytes(_ vector: VectorFile.Vector) throws {
        let expected = try vector.bytes("mac")
        let mac = try HMACSHA256(key: SecureBytes(vector.bytes("key")))
        let data = try vector.bytes("data")
        let secure = try mac.authenticateIntoSecureBytes(message: data)
        #expect(secure.count == HMACSHA256.outputSize)
        #expect(Array(secure.bytes.prefix(expected.count)) == expected)
        #expect(secure.bytes == (try mac.authenticate(message: data)))
        let fromBytes = try data.withUnsafeBytes { try mac.authenticateIntoSecureBytes(bytes: $0) }
        #expect(fromBytes.constantTimeEquals(secure))
    }

    @Test(arguments: VectorFile.load("hkdf-sha256.txt"))
    func hkdfSHA256(_ vector: VectorFile.Vector) throws {
        let okm = try KeyDerivation.hkdfSHA256(
            key: SecureBytes(vector.bytes("ikm")), salt: vector.bytes("salt"), info: vector.bytes("info"),
            count: vector.integer("length"))
        #expect(okm.bytes == (try vector.bytes("okm")))
    }

    @Test(arguments: VectorFile.load("aes256-gcm.txt"))
    func aes256GCM(_ vector: VectorFile.Vector) throws {
        let key = SecureBytes(try vector.bytes("key"))
        let nonce = try vector.bytes("iv")
        let aad = try vector.bytes("aad")
        let plaintext = try vector.bytes("plaintext")
        let box = nonce + (try vector.bytes("ciphertext")) + (try vector.bytes("tag"))
        // Sealing under the vector's nonce goes through the backend: the API always draws a random nonce.
        let sealed = try plaintext.withUnsafeBytes { try OpenSSLAESGCM.seal($0, key: key, nonce: nonce, aad: aad) }
        #expect(sealed == box)
        #expect(try AESGCM.open(box, key: key, authenticating: aad).bytes == plaintext)
        var altered = box
        altered[altered.count - 1] ^= 1
        #expect(throws: CryptoError.authenticationFailure) { try AESGCM.open(altered, key: key, authenticating: aad) }
    }

    @Test(arguments: VectorFile.load("aes-key-wrap.txt"))
    func aesKeyWrap(_ vector: VectorFile.Vector) throws {
        let kek = SecureBytes(try vector.bytes("kek"))
        let key = try vector.bytes("key")
        let wrapped = try vector.bytes("wrapped")
        #expect(try AESKeyWrap.wrap(SecureBytes(key), kek: kek) == wrapped)
        #expect(try AESKeyWrap.unwrap(wrapped, kek: kek).bytes == key)
    }

    @Test(arguments: VectorFile.load("pbkdf2-sha256.txt"))
    func pbkdf2SHA256(_ vector: VectorFile.Vector) throws {
        let expected = try vector.bytes("dk")
        let derived = try KeyDerivation.pbkdf2SHA256(
            password: SecureBytes(vector.bytes("password")), salt: vector.bytes("salt"),
            iterations: vector.integer("iterations"), count: expected.count)
        #expect(derived.bytes == expected)
    }

    @Test func sha256OfAbc() throws {
        #expect(
            try SHA256.hash(Array("abc".utf8))
                == hexBytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
    }
}

@Suite struct AESGCMTests {
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
        #expect(first.prefix(AESGCM.nonceSize) != second.prefix(AESGCM.nonceSize))
    }

    @Test func wrongKeyAndNonceLengthsAreRefused() throws {
        #expect(throws: CryptoError.invalidLength(operation: "AES-GCM key", length: 16)) {
            try AESGCM.seal([1], key: SecureBytes([UInt8](repeating: 0, count: 16)), authenticating: [])
        }
        #expect(throws: CryptoError.invalidLength(operation: "AES-GCM nonce", length: 8)) {
            try [UInt8]().withUnsafeBytes {
                try OpenSSLAESGCM.seal($0, key: try SystemRandom.key(), nonce: [0, 0, 0, 0, 0, 0, 0, 0], aad: [])
            }
        }
    }
}

@Suite struct AESKeyWrapTests {
    @Test func rejectsWrongKEKAndDamage() throws {
        let kek = try SystemRandom.key()
        var wrapped = try AESKeyWrap.wrap(try SystemRandom.key(), kek: kek)
        #expect(throws: CryptoError.authenticationFailure) {
            try AESKeyWrap.unwrap(wrapped, kek: try SystemRandom.key())
        }
        wrapped[0] ^= 0x80
        #expect(throws: CryptoError.authenticationFailure) { try AESKeyWrap.unwrap(wrapped, kek: kek) }
        #expect(throws: CryptoError.authenticationFailure) { try AESKeyWrap.unwrap([1, 2, 3], kek: kek) }
    }
}

@Suite struct KeyDerivationLimitsTests {
    @Test func hkdfOutputLengthIsBounded() throws {
        let key = try SystemRandom.key()
        #expect(throws: CryptoError.invalidLength(operation: "HKDF output", length: 0)) {
            try KeyDerivation.hkdfSHA256(key: key, salt: [], info: [], count: 0)
        }
        #expect(throws: CryptoError.invalidLength(operation: "HKDF output", length: 8161)) {
            try KeyDerivation.hkdfSHA256(key: key, salt: [], info: [], count: 8161)
        }
        #expect(try KeyDerivation.hkdfSHA256(key: key, salt: [], info: [], count: 8160).count == 8160)
    }

    @Test func hmacWithAnEmptyKeyEqualsAZeroKey() throws {
        let empty = try HMACSHA256(key: SecureBytes([UInt8]()))
        let zeros = try HMACSHA256(key: SecureBytes([UInt8](repeating: 0, count: 32)))
        #expect(try empty.authenticate(message: [1, 2]) == zeros.authenticate(message: [1, 2]))
    }
}

@Suite struct CryptoErrorTests {
    /// A library failure keeps OpenSSL's own code: here, the error OpenSSL queues when asked for no PBKDF2
    /// rounds (the API refuses that earlier, so the backend is called directly).
    @Test func libraryFailureKeepsOpenSSLsCodeAndOperation() throws {
        let error = #expect(throws: CryptoError.self) {
            try OpenSSLKDF.pbkdf2SHA256(password: SecureBytes(Array("a".utf8)), salt: [1], iterations: 0, count: 32)
        }
        guard case .library(let operation, let code)? = error else { return }
        #expect(operation == "PBKDF2")
        #expect(code != 0)
        #expect(error?.description.hasPrefix("PBKDF2: OpenSSL failure (error 0x") == true)
    }
}

@Suite struct SecureBytesTests {
    @Test func base64DecodesWhatFoundationWrites() throws {
        for count in 0...40 {
            let bytes = try SystemRandom.bytes(count)
            let text = Data(bytes).base64EncodedString()
            #expect(try #require(SecureBytes(base64Encoded: text)).bytes == bytes, "\(count) bytes")
        }
        #expect(SecureBytes(base64Encoded: "TWFu")?.bytes == Array("Man".utf8))
        #expect(SecureBytes(base64Encoded: "TWE=")?.bytes == Array("Ma".utf8))
        #expect(SecureBytes(base64Encoded: "TQ==")?.bytes == Array("M".utf8))
        // Padding only at the end (Foundation takes "TW=u" as "TW=="): nothing here writes anything else.
        for damaged in ["TWF", "TW=u", "T===", "TWE*", "TWFu\n", "=TWF"] {
            #expect(SecureBytes(base64Encoded: damaged) == nil, "\(damaged)")
        }
    }

    @Test func descriptionRedactsAndComparisonIsExact() throws {
        let secret = SecureBytes(Array("hunter2".utf8))
        #expect(!"\(secret)".contains("hunter2"))
        #expect(secret.constantTimeEquals(SecureBytes(Array("hunter2".utf8))))
        #expect(!secret.constantTimeEquals(SecureBytes(Array("hunter3".utf8))))
        #expect(!secret.constantTimeEquals(SecureBytes(Array("hunter".utf8))))
        #expect(try SystemRandom.bytes(32) != SystemRandom.bytes(32))
    }

    @Test func wipeZeroesAndEmptiesOnlyTheCallersArray() {
        var secret: [UInt8] = [1, 2, 3, 4]
        let copy = secret
        wipe(&secret)
        #expect(secret.isEmpty)
        #expect(copy == [1, 2, 3, 4])
    }
}
