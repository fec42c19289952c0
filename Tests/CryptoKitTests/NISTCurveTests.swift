import CryptoKit
import Foundation
import Testing

@Suite struct CryptoKitNISTCurveTests {
    @Test func p256RepresentationsRoundTrip() throws {
        let key = P256.Signing.PrivateKey()
        let publicKey = key.publicKey
        #expect(key.rawRepresentation.count == 32)
        #expect(key.x963Representation.count == 97)
        #expect(publicKey.rawRepresentation.count == 64)
        #expect(publicKey.x963Representation.first == 0x04)
        #expect(publicKey.compressedRepresentation.count == 33)
        // Keys are compact-representable by default.
        let compact = try #require(publicKey.compactRepresentation)
        #expect(compact.count == 32)
        let fromCompact = try P256.Signing.PublicKey(compactRepresentation: compact)
        #expect(fromCompact.rawRepresentation == publicKey.rawRepresentation)
        for restored in [
            try P256.Signing.PublicKey(rawRepresentation: publicKey.rawRepresentation),
            try P256.Signing.PublicKey(x963Representation: publicKey.x963Representation),
            try P256.Signing.PublicKey(compressedRepresentation: publicKey.compressedRepresentation),
            try P256.Signing.PublicKey(derRepresentation: publicKey.derRepresentation),
            try P256.Signing.PublicKey(pemRepresentation: publicKey.pemRepresentation),
        ] {
            #expect(restored.x963Representation == publicKey.x963Representation)
        }
        for restored in [
            try P256.Signing.PrivateKey(rawRepresentation: key.rawRepresentation),
            try P256.Signing.PrivateKey(x963Representation: key.x963Representation),
            try P256.Signing.PrivateKey(derRepresentation: key.derRepresentation),
            try P256.Signing.PrivateKey(pemRepresentation: key.pemRepresentation),
        ] {
            #expect(restored.rawRepresentation == key.rawRepresentation)
        }
        #expect(publicKey.pemRepresentation.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        #expect(key.pemRepresentation.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
    }

    @Test func nonCompactKeysHaveNoCompactRepresentation() {
        var sawNonCompact = false
        for _ in 0..<64
        where P384.KeyAgreement.PrivateKey(compactRepresentable: false).publicKey
            .compactRepresentation == nil
        {
            sawNonCompact = true
            break
        }
        #expect(sawNonCompact)
    }

    @Test func signaturesVerifyAndConvert() throws {
        let message = Data("message".utf8)
        let p256 = P256.Signing.PrivateKey()
        let signature = try p256.signature(for: message)
        #expect(signature.rawRepresentation.count == 64)
        #expect(p256.publicKey.isValidSignature(signature, for: message))
        #expect(p256.publicKey.isValidSignature(signature, for: SHA256.hash(data: message)))
        #expect(!p256.publicKey.isValidSignature(signature, for: Data("massage".utf8)))
        let viaDER = try P256.Signing.ECDSASignature(derRepresentation: signature.derRepresentation)
        #expect(viaDER.rawRepresentation == signature.rawRepresentation)
        #expect(try p256.signature(for: message).rawRepresentation != signature.rawRepresentation)

        let p384 = P384.Signing.PrivateKey()
        let s384 = try p384.signature(for: message)
        #expect(s384.rawRepresentation.count == 96 && p384.publicKey.isValidSignature(s384, for: message))
        let p521 = P521.Signing.PrivateKey()
        let s521 = try p521.signature(for: SHA512.hash(data: message))
        #expect(s521.rawRepresentation.count == 132 && p521.publicKey.isValidSignature(s521, for: message))
        #expect(
            try P521.Signing.ECDSASignature(rawRepresentation: s521.rawRepresentation).derRepresentation
                == s521.derRepresentation)
    }

    @Test func keyAgreementAndDerivedKeys() throws {
        let alice = P521.KeyAgreement.PrivateKey()
        let bob = P521.KeyAgreement.PrivateKey()
        let ab = try alice.sharedSecretFromKeyAgreement(with: bob.publicKey)
        let ba = try bob.sharedSecretFromKeyAgreement(with: alice.publicKey)
        #expect(ab == ba)
        #expect(ab.withUnsafeBytes { $0.count } == 66)
        let k1 = ab.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: Data("s".utf8), sharedInfo: Data("i".utf8),
            outputByteCount: 32)
        #expect(
            k1
                == ba.hkdfDerivedSymmetricKey(
                    using: SHA256.self, salt: Data("s".utf8), sharedInfo: Data("i".utf8),
                    outputByteCount: 32))
        let x963 = ab.x963DerivedSymmetricKey(using: SHA384.self, sharedInfo: Data("i".utf8), outputByteCount: 80)
        #expect(x963.bitCount == 640)
        // ANSI X9.63 KDF by hand: SHA-384(Z ‖ 00000001 ‖ info) ‖ SHA-384(Z ‖ 00000002 ‖ info), truncated.
        let z = ab.withUnsafeBytes { Data($0) }
        let expected =
            Data(SHA384.hash(data: z + Data([0, 0, 0, 1]) + Data("i".utf8)))
            + Data(SHA384.hash(data: z + Data([0, 0, 0, 2]) + Data("i".utf8)))
        #expect(x963.withUnsafeBytes { Data($0) } == expected.prefix(80))
    }

    @Test func rejectsBadKeysWithApplesErrors() throws {
        #expect(throws: CryptoKitError.incorrectParameterSize) {
            try P256.Signing.PublicKey(rawRepresentation: Data(count: 63))
        }
        #expect(throws: CryptoKitError.incorrectParameterSize) {
            try P256.Signing.PrivateKey(rawRepresentation: Data(count: 31))
        }
        #expect(throws: CryptoKitError.incorrectKeySize) {
            var x963 = P256.Signing.PrivateKey().publicKey.x963Representation
            x963[0] = 0x05
            return try P256.Signing.PublicKey(x963Representation: x963)
        }
        // (1, 1) is not on P-256.
        var offCurve = Data(count: 64)
        offCurve[31] = 1
        offCurve[63] = 1
        #expect(throws: CryptoKitError.invalidParameter) { try P256.Signing.PublicKey(rawRepresentation: offCurve) }
        #expect(throws: CryptoKitError.invalidParameter) {
            try P256.Signing.PrivateKey(rawRepresentation: Data(count: 32))
        }
        // As Apple's: a key of another curve fails on its point's size.
        #expect(throws: CryptoKitError.incorrectParameterSize) {
            try P384.Signing.PublicKey(derRepresentation: P256.Signing.PrivateKey().publicKey.derRepresentation)
        }
        #expect(throws: CryptoKitASN1Error.invalidPEMDocument) {
            try P256.Signing.PublicKey(
                pemRepresentation: "-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----")
        }
        #expect(throws: CryptoKitASN1Error.truncatedASN1Field) {
            try P256.Signing.ECDSASignature(derRepresentation: Data([0x30, 0x03, 0x02, 0x01]))
        }
        #expect(throws: CryptoKitError.incorrectParameterSize) {
            try P256.Signing.ECDSASignature(rawRepresentation: Data(count: 65))
        }
        // The point given in an X9.63 private key must be the scalar's.
        var mismatched = P256.Signing.PrivateKey().x963Representation
        mismatched.replaceSubrange(1..<65, with: P256.Signing.PrivateKey().publicKey.rawRepresentation)
        #expect(throws: CryptoKitError.invalidParameter) { try P256.Signing.PrivateKey(x963Representation: mismatched) }
    }
}
