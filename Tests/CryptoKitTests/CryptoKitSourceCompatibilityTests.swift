import CryptoKit
import Foundation
import Testing

/// Runs the application-style code in AppStyleCryptography.swift and checks deterministic outputs against the
/// `openssl` command.
@Suite struct CryptoKitSourceCompatibilityTests {
    @Test func sealAndOpenAsTheGuideWritesIt() throws {
        let secret = Data("top secret".utf8)
        let sealed = try encrypt(secret, using: appEncryptionKey)
        #expect(sealed.count == 12 + secret.count + 16)
        #expect(try decrypt(sealed, using: appEncryptionKey) == secret)
        var tampered = sealed
        tampered[tampered.count - 1] ^= 1
        #expect(throws: CryptoKitError.authenticationFailure) { try decrypt(tampered, using: appEncryptionKey) }
        do {
            _ = try decrypt(tampered, using: appEncryptionKey)
        } catch {
            #expect(describeFailure(error) == "tampered")
        }
    }

    @Test func anAppsOwnDescriptionOfSymmetricKeyIsTheOneUsed() throws {
        let key = SymmetricKey(size: .bits256)
        #expect("\(key)" == "a stored key of 32 bytes")
        #expect(try SymmetricKey(passwordBytes: key.passwordBytes) == key)
    }

    @Test func noncesIterateAsArraysOfBytes() throws {
        let gcm = try AES.GCM.Nonce(data: Data([7] + [UInt8](repeating: 0, count: 11)))
        #expect(firstByte(of: gcm) == 7)
        let chacha = try ChaChaPoly.Nonce(data: Data([UInt8](repeating: 0, count: 11) + [9]))
        #expect(lastByte(of: chacha) == 9)
    }

    @Test func digestsMatchOpenSSL() throws {
        let openssl = try OpenSSLCommand()
        let data = Data("The quick brown fox jumps over the lazy dog".utf8)
        try openssl.write("data", data)
        func opensslDigest(_ name: String) throws -> String {
            let output = String(decoding: try openssl.run(["dgst", "-\(name)", "-r", "data"]), as: UTF8.self)
            return String(output.prefix { $0 != " " })
        }
        #expect(hexDigest(of: data) == (try opensslDigest("sha256")))
        let others = otherDigests(of: data)
        #expect(others.sha384 == "SHA384 digest: " + (try opensslDigest("sha384")))
        #expect(others.sha512 == "SHA512 digest: " + (try opensslDigest("sha512")))
        let legacy = legacyChecksums(data)
        #expect(legacy.md5 == (try opensslDigest("md5")))
        #expect(legacy.sha1 == (try opensslDigest("sha1")))
        let chunks = stride(from: 0, to: data.count, by: 5).map { data[$0..<min($0 + 5, data.count)] }
        #expect(hexText(streamDigest(chunks)) == (try opensslDigest("sha256")))
        let pinned = Data(base64Encoded: pin(ofPublicKey: data))
        #expect(pinned.map(hexText) == (try opensslDigest("sha256")))
    }

    @Test func hmacMatchesOpenSSL() throws {
        let openssl = try OpenSSLCommand()
        try openssl.write("message", Data("what do ya want for nothing?".utf8))
        let output = String(
            decoding: try openssl.run(["dgst", "-sha256", "-mac", "HMAC", "-macopt", "key:Jefe", "-r", "message"]),
            as: UTF8.self)
        #expect(hmacHex("what do ya want for nothing?", key: "Jefe") == String(output.prefix { $0 != " " }))
        let signed = signAndVerify(Data("payload".utf8))
        #expect(signed.isValid && signed.code.count == 32)
        let key = SymmetricKey(size: .bits256)
        #expect(
            incrementalHMAC([Data("a".utf8), Data("bc".utf8)], key: key)
                == HMAC<SHA512>.authenticationCode(for: Data("abc".utf8), using: key))
    }

    @Test func signaturesAndKeyAgreementAsDocumented() throws {
        let data = Data("document".utf8)
        #expect(try signWithP256(data))
        #expect(try signWithCurve25519(data))
        #expect(try signWithP384AndP521(data))
        #expect(try agreeOnKeyWithCurve25519())
        #expect(try agreeOnKeyWithP256())
    }

    @Test func chaChaPolyHKDFAndKeyWrapAsDocumented() throws {
        let key = SymmetricKey(size: .bits256)
        #expect(try sealWithChaChaPoly(Data("hello".utf8), key: key) == Data("hello".utf8))
        let master = SymmetricKey(data: Data("input key".utf8))
        let derived = deriveSessionKey(from: master, context: "info")
        let openssl = try OpenSSLCommand()
        let expected = try openssl.run([
            "kdf", "-keylen", "32", "-kdfopt", "digest:SHA256", "-kdfopt", "key:input key", "-kdfopt", "salt:salt",
            "-kdfopt", "info:info", "HKDF",
        ])
        #expect(
            hexText(storeKeyBytes(derived)).uppercased()
                == String(decoding: expected, as: UTF8.self).filter { $0.isHexDigit }.uppercased())
        #expect(try wrapAndUnwrap(key, with: SymmetricKey(size: .bits128)) == key)
    }
}
