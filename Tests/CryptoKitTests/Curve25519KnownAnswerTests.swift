import CryptoKit
import Foundation
import Testing

// RFC 8032 section 7.1 (Ed25519 tests 1 and 2) and RFC 7748 section 6.1 (X25519).
@Suite struct CryptoKitCurve25519Tests {
    @Test func rfc8032Test1EmptyMessage() throws {
        let key = try Curve25519.Signing.PrivateKey(
            rawRepresentation: hexBytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        #expect(
            hexText(key.publicKey.rawRepresentation)
                == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let signature = try key.signature(for: Data())
        #expect(
            hexText(signature)
                == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
                + "d25bf5f0595bbe24655141438e7a100b")
        #expect(key.publicKey.isValidSignature(signature, for: Data()))
    }

    @Test func rfc8032Test2OneByte() throws {
        let publicKey = try Curve25519.Signing.PublicKey(
            rawRepresentation: hexBytes("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"))
        let signature = hexBytes(
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                + "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")
        #expect(publicKey.isValidSignature(signature, for: [0x72]))
        #expect(!publicKey.isValidSignature(signature, for: [0x73]))
        var altered = signature
        altered[5] ^= 1
        #expect(!publicKey.isValidSignature(altered, for: [0x72]))
        #expect(!publicKey.isValidSignature(signature.dropLast(), for: [0x72]))
    }

    @Test func rfc7748Section61() throws {
        let alice = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: hexBytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: hexBytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(
            hexText(alice.publicKey.rawRepresentation)
                == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(
            hexText(bob.publicKey.rawRepresentation)
                == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = try alice.sharedSecretFromKeyAgreement(with: bob.publicKey)
        #expect(
            shared.withUnsafeBytes { hexText($0) }
                == "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
        #expect(shared == (try bob.sharedSecretFromKeyAgreement(with: alice.publicKey)))
        #expect(!"\(shared)".contains("4a5d9d5b"))
    }

    @Test func rejectsSmallOrderPointsAndBadLengths() throws {
        let key = Curve25519.KeyAgreement.PrivateKey()
        // The point of order 1 (u = 0) gives an all-zero result, which RFC 7748 section 6.1 says to refuse.
        let zero = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: Data(count: 32))
        #expect(throws: CryptoKitError.self) { try key.sharedSecretFromKeyAgreement(with: zero) }
        #expect(throws: CryptoKitError.incorrectKeySize) {
            try Curve25519.KeyAgreement.PublicKey(rawRepresentation: Data(count: 31))
        }
        #expect(throws: CryptoKitError.incorrectKeySize) {
            try Curve25519.Signing.PrivateKey(rawRepresentation: Data(count: 33))
        }
    }

    @Test func generatedKeysRoundTrip() throws {
        let signer = Curve25519.Signing.PrivateKey()
        let restored = try Curve25519.Signing.PrivateKey(rawRepresentation: signer.rawRepresentation)
        #expect(restored.publicKey.rawRepresentation == signer.publicKey.rawRepresentation)
        let message = Data("hello".utf8)
        #expect(restored.publicKey.isValidSignature(try signer.signature(for: message), for: message))
        let agreement = Curve25519.KeyAgreement.PrivateKey()
        #expect(agreement.rawRepresentation.count == 32)
        #expect(agreement.rawRepresentation != Curve25519.KeyAgreement.PrivateKey().rawRepresentation)
    }
}
