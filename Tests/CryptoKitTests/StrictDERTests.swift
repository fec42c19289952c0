import CryptoKit
import Foundation
import Testing

/// DER key and signature encodings are read as strictly as Apple's CryptoKit reads them, with its errors.
@Suite struct CryptoKitStrictDERTests {
    /// `header ‖ length ‖ content` for a short-form length.
    private func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag, UInt8(content.count)] + content }

    @Test func signatureWithLongFormLengthIsRefused() throws {
        let key = P256.Signing.PrivateKey()
        let der = Array(try key.signature(for: Data("message".utf8)).derRepresentation)
        // The same SEQUENCE with its length in the long form (0x81 n): BER, not DER.
        let ber = [der[0], 0x81] + der[1...]
        #expect(throws: CryptoKitASN1Error.unsupportedFieldLength) {
            try P256.Signing.ECDSASignature(derRepresentation: ber)
        }
        // An r whose length has a leading zero octet (0x82 00 n).
        let rLength = Int(der[3])
        let berR = [der[0], der[1] + 2, 0x02, 0x82, 0x00] + der[3...]
        #expect(rLength > 0)
        #expect(throws: CryptoKitASN1Error.unsupportedFieldLength) {
            try P256.Signing.ECDSASignature(derRepresentation: berR)
        }
        #expect(try P256.Signing.ECDSASignature(derRepresentation: der).derRepresentation == Data(der))
    }

    @Test func signatureIntegersMustBeMinimal() {
        // r = 00 01: a leading zero that is not needed.
        let der = tlv(0x30, tlv(0x02, [0x00, 0x01]) + tlv(0x02, [0x01]))
        #expect(throws: CryptoKitASN1Error.invalidASN1IntegerEncoding) {
            try P256.Signing.ECDSASignature(derRepresentation: der)
        }
        #expect(throws: CryptoKitASN1Error.truncatedASN1Field) {
            try P256.Signing.ECDSASignature(derRepresentation: Data([0x30, 0x03, 0x02, 0x01]))
        }
    }

    /// An r or s with more magnitude bytes than the curve's coordinate is a wrong size, as swift-crypto says, not
    /// malformed DER; one as long as the coordinate, after the zero a high bit needs, still reads.
    @Test func signatureIntegerLongerThanTheCurveIsAWrongSize() throws {
        let sizes: [(Int, ([UInt8]) throws -> Data)] = [
            (32, { try P256.Signing.ECDSASignature(derRepresentation: $0).rawRepresentation }),
            (48, { try P384.Signing.ECDSASignature(derRepresentation: $0).rawRepresentation }),
            (66, { try P521.Signing.ECDSASignature(derRepresentation: $0).rawRepresentation }),
        ]
        for (size, read) in sizes {
            let long = tlv(0x02, [0x01] + [UInt8](repeating: 0x5A, count: size))
            let one = tlv(0x02, [0x01])
            #expect(throws: CryptoKitError.incorrectParameterSize) { try read(tlv(0x30, long + one)) }
            #expect(throws: CryptoKitError.incorrectParameterSize) { try read(tlv(0x30, one + long)) }
            let full = [0x80] + [UInt8](repeating: 0x5A, count: size - 1)
            let raw = try read(tlv(0x30, tlv(0x02, [0x00] + full) + one))
            #expect(raw == Data(full + [UInt8](repeating: 0, count: size - 1) + [0x01]))
        }
    }

    @Test func publicKeyOfAnotherCurveIsAWrongSize() {
        let p256 = P256.Signing.PrivateKey().publicKey.derRepresentation
        #expect(throws: CryptoKitError.incorrectParameterSize) { try P384.Signing.PublicKey(derRepresentation: p256) }
        #expect(throws: CryptoKitError.incorrectParameterSize) {
            try P521.KeyAgreement.PublicKey(derRepresentation: p256)
        }
        #expect(throws: CryptoKitError.incorrectParameterSize) {
            try P384.KeyAgreement.PublicKey(pemRepresentation: P256.Signing.PrivateKey().publicKey.pemRepresentation)
        }
    }

    @Test func privateAndPublicDocumentsAreNotInterchangeable() {
        let publicDER = P256.Signing.PrivateKey().publicKey.derRepresentation
        let privateDER = P256.Signing.PrivateKey().derRepresentation
        #expect(throws: CryptoKitASN1Error.unexpectedFieldType) {
            try P256.Signing.PrivateKey(derRepresentation: publicDER)
        }
        #expect(throws: CryptoKitASN1Error.unexpectedFieldType) {
            try P256.KeyAgreement.PublicKey(derRepresentation: privateDER)
        }
    }

    @Test func p521ScalarWithoutItsLeadingZeroIsRefused() {
        // PKCS #8 around a SEC 1 key whose scalar has 65 octets, not the 66 P-521 needs (as some older encoders
        // wrote it); the scalar itself (0x01 then 64 octets of 0x11) is in range.
        let scalar: [UInt8] = [0x01] + [UInt8](repeating: 0x11, count: 64)
        let sec1 = tlv(0x30, tlv(0x02, [0x01]) + tlv(0x04, scalar))
        let algorithm = tlv(
            0x30,
            tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])
                + tlv(0x06, [0x2B, 0x81, 0x04, 0x00, 0x23]))
        let pkcs8 = tlv(0x30, tlv(0x02, [0x00]) + algorithm + tlv(0x04, sec1))
        #expect(throws: CryptoKitError.incorrectParameterSize) { try P521.Signing.PrivateKey(derRepresentation: pkcs8) }
        #expect(throws: CryptoKitError.incorrectParameterSize) {
            try P521.KeyAgreement.PrivateKey(derRepresentation: sec1)
        }
        // Padded to 66 octets, the same key is accepted.
        let padded = tlv(0x30, tlv(0x02, [0x01]) + tlv(0x04, [0x00] + scalar))
        #expect((try? P521.KeyAgreement.PrivateKey(derRepresentation: padded)) != nil)
    }

    @Test func keyDocumentsStillRoundTrip() throws {
        let key = P384.Signing.PrivateKey()
        #expect(
            try P384.Signing.PrivateKey(derRepresentation: key.derRepresentation).rawRepresentation
                == key.rawRepresentation)
        #expect(
            try P384.Signing.PublicKey(derRepresentation: key.publicKey.derRepresentation).rawRepresentation
                == key.publicKey.rawRepresentation)
        #expect(
            try P384.Signing.PrivateKey(pemRepresentation: key.pemRepresentation).rawRepresentation
                == key.rawRepresentation)
    }

    @Test func hpkeKEMEncapsulationSizes() {
        #expect(HPKE.KEM.P256_HKDF_SHA256.nEnc == 65)
        #expect(HPKE.KEM.P384_HKDF_SHA384.nEnc == 97)
        #expect(HPKE.KEM.P521_HKDF_SHA512.nEnc == 133)
        #expect(HPKE.KEM.Curve25519_HKDF_SHA256.nEnc == 32)
    }
}
