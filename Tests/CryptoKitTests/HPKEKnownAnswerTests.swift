import Foundation
import Testing

@testable import CryptoKit

// RFC 9180 appendix A: the recipient opens the published ciphertexts (sequence numbers 0 and 1) and reproduces the
// published exported values; the sender, given the published ephemeral key, reproduces enc and the ciphertexts.
@Suite struct CryptoKitHPKETests {
    static let info = Data(hexBytes("4f6465206f6e2061204772656369616e2055726e"))
    static let plaintext = Data(hexBytes("4265617574792069732074727574682c20747275746820626561757479"))
    static let aad0 = Data(hexBytes("436f756e742d30"))
    static let aad1 = Data(hexBytes("436f756e742d31"))
    static let exportContexts = [Data(), Data([0]), Data(hexBytes("54657374436f6e74657874"))]

    static func expectExports(_ exported: (Data) throws -> SymmetricKey, _ expected: [String]) throws {
        for (context, value) in zip(exportContexts, expected) {
            #expect(try exported(context).withUnsafeBytes { hexText($0) } == value)
        }
    }

    @Test func a11BaseX25519AES128() throws {
        let suite = HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)
        let key = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: hexBytes("4612c550263fc8ad58375df3f557aac531d26850903e55a9f23f21d8534e8ac8"))
        let enc = Data(hexBytes("37fda3567bdbd628e88668c3c8d7e97d1d1253b6d4ea6d44c150f741f1bf4431"))
        var recipient = try HPKE.Recipient(privateKey: key, ciphersuite: suite, info: Self.info, encapsulatedKey: enc)
        let ct0 = "f938558b5d72f1a23810b4be2ab4f84331acc02fc97babc53a52ae8218a355a96d8770ac83d07bea87e13c512a"
        let ct1 = "af2d7e9ac9ae7e270f46ba1f975be53c09f8d875bdc8535458c2494e8a6eab251c03d0c22a56b8ca42c2063b84"
        #expect(try recipient.open(hexBytes(ct0), authenticating: Self.aad0) == Self.plaintext)
        #expect(try recipient.open(hexBytes(ct1), authenticating: Self.aad1) == Self.plaintext)
        try Self.expectExports(
            { try recipient.exportSecret(context: $0, outputByteCount: 32) },
            [
                "3853fe2b4035195a573ffc53856e77058e15d9ea064de3e59f4961d0095250ee",
                "2e8f0b54673c7029649d4eb9d5e33bf1872cf76d623ff164ac185da9e88c21a5",
                "e9e43065102c3836401bed8c3c3c75ae46be1639869391d62c61f1ec7af54931",
            ])

        // The sender with the published ephemeral key.
        let ephemeral = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: hexBytes("52c4a758a802cd8b936eceea314432798d5baf2d7e9235dc084ab1b9cfa2f736"))
        var sender = try HPKE.Sender(
            mode: .base, recipientKey: key.publicKey, ciphersuite: suite, info: Self.info,
            sender: Curve25519.KeyAgreement.PrivateKey?.none, psk: nil, pskID: nil, ephemeralKey: ephemeral)
        #expect(sender.encapsulatedKey == enc)
        #expect(hexText(try sender.seal(Self.plaintext, authenticating: Self.aad0)) == ct0)
        #expect(hexText(try sender.seal(Self.plaintext, authenticating: Self.aad1)) == ct1)
    }

    @Test func a21BaseX25519ChaChaPoly() throws {
        let key = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: hexBytes("8057991eef8f1f1af18f4a9491d16a1ce333f695d4db8e38da75975c4478e0fb"))
        var recipient = try HPKE.Recipient(
            privateKey: key, ciphersuite: .Curve25519_SHA256_ChachaPoly, info: Self.info,
            encapsulatedKey: Data(hexBytes("1afa08d3dec047a643885163f1180476fa7ddb54c6a8029ea33f95796bf2ac4a")))
        let ct0 = "1c5250d8034ec2b784ba2cfd69dbdb8af406cfe3ff938e131f0def8c8b60b4db21993c62ce81883d2dd1b51a28"
        #expect(try recipient.open(hexBytes(ct0), authenticating: Self.aad0) == Self.plaintext)
        try Self.expectExports(
            { try recipient.exportSecret(context: $0, outputByteCount: 32) },
            [
                "4bbd6243b8bb54cec311fac9df81841b6fd61f56538a775e7c80a9f40160606e",
                "8c1df14732580e5501b00f82b10a1647b40713191b7c1240ac80e2b68808ba69",
                "5acb09211139c43b3090489a9da433e8a30ee7188ba8b0a9a1ccf0c229283e53",
            ])
    }

    @Test func a31BaseP256AES128() throws {
        let suite = HPKE.Ciphersuite(kem: .P256_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)
        let key = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: hexBytes("f3ce7fdae57e1a310d87f1ebbde6f328be0a99cdbcadf4d6589cf29de4b8ffd2"))
        let enc = hexBytes(
            "04a92719c6195d5085104f469a8b9814d5838ff72b60501e2c4466e5e67b325ac9"
                + "8536d7b61a1af4b78e5b7f951c0900be863c403ce65c9bfcb9382657222d18c4")
        var recipient = try HPKE.Recipient(
            privateKey: key, ciphersuite: suite, info: Self.info, encapsulatedKey: Data(enc))
        let ct0 = "5ad590bb8baa577f8619db35a36311226a896e7342a6d836d8b7bcd2f20b6c7f9076ac232e3ab2523f39513434"
        let ct1 = "fa6f037b47fc21826b610172ca9637e82d6e5801eb31cbd3748271affd4ecb06646e0329cbdf3c3cd655b28e82"
        #expect(try recipient.open(hexBytes(ct0), authenticating: Self.aad0) == Self.plaintext)
        #expect(try recipient.open(hexBytes(ct1), authenticating: Self.aad1) == Self.plaintext)
        try Self.expectExports(
            { try recipient.exportSecret(context: $0, outputByteCount: 32) },
            [
                "5e9bc3d236e1911d95e65b576a8a86d478fb827e8bdfe77b741b289890490d4d",
                "6cff87658931bda83dc857e6353efe4987a201b849658d9b047aab4cf216e796",
                "d8f1ea7942adbba7412c6d431c62d01371ea476b823eb697e1f6e6cae1dab85a",
            ])
    }

    @Test func a61BaseP521AES256() throws {
        let key = try P521.KeyAgreement.PrivateKey(
            rawRepresentation: hexBytes(
                "01462680369ae375e4b3791070a7458ed527842f6a98a79ff5e0d4cbde83c27196a3916956655523a6a2556a7af62c5cad"
                    + "abe2ef9da3760bb21e005202f7b2462847"))
        let enc = hexBytes(
            "040138b385ca16bb0d5fa0c0665fbbd7e69e3ee29f63991d3e9b5fa740aab8900aaeed46ed73a49055758425a0ce36507c54b2"
                + "9cc5b85a5cee6bae0cf1c21f2731ece2013dc3fb7c8d21654bb161b463962ca19e8c654ff24c94dd2898de12051f1ed06922"
                + "37fb02b2f8d1dc1c73e9b366b529eb436e98a996ee522aef863dd5739d2f29b0")
        var recipient = try HPKE.Recipient(
            privateKey: key, ciphersuite: .P521_SHA512_AES_GCM_256, info: Self.info, encapsulatedKey: Data(enc))
        let ct0 = "170f8beddfe949b75ef9c387e201baf4132fa7374593dfafa90768788b7b2b200aafcc6d80ea4c795a7c5b841a"
        #expect(try recipient.open(hexBytes(ct0), authenticating: Self.aad0) == Self.plaintext)
        try Self.expectExports(
            { try recipient.exportSecret(context: $0, outputByteCount: 32) },
            [
                "05e2e5bd9f0c30832b80a279ff211cc65eceb0d97001524085d609ead60d0412",
                "fca69744bb537f5b7a1596dbf34eaa8d84bf2e3ee7f1a155d41bd3624aa92b63",
                "f389beaac6fcf6c0d9376e20f97e364f0609a88f1bc76d7328e9104df8477013",
            ])
    }

    @Test func a12PSKX25519() throws {
        let suite = HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)
        let key = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: hexBytes("c5eb01eb457fe6c6f57577c5413b931550a162c71a03ac8d196babbd4e5ce0fd"))
        let psk = SymmetricKey(data: hexBytes("0247fd33b913760fa1fa51e1892d9f307fbe65eb171e8132c2af18555a738b82"))
        let pskID = Data(hexBytes("456e6e796e20447572696e206172616e204d6f726961"))
        var recipient = try HPKE.Recipient(
            privateKey: key, ciphersuite: suite, info: Self.info,
            encapsulatedKey: Data(hexBytes("0ad0950d9fb9588e59690b74f1237ecdf1d775cd60be2eca57af5a4b0471c91b")),
            presharedKey: psk, presharedKeyIdentifier: pskID)
        let ct0 = "e52c6fed7f758d0cf7145689f21bc1be6ec9ea097fef4e959440012f4feb73fb611b946199e681f4cfc34db8ea"
        #expect(try recipient.open(hexBytes(ct0), authenticating: Self.aad0) == Self.plaintext)
        try Self.expectExports(
            { try recipient.exportSecret(context: $0, outputByteCount: 32) },
            [
                "dff17af354c8b41673567db6259fd6029967b4e1aad13023c2ae5df8f4f43bf6",
                "6a847261d8207fe596befb52928463881ab493da345b10e1dcc645e3b94e2d95",
                "8aff52b45a1be3a734bc7a41e20b4e055ad4c4d22104b0c20285a7c4302401cd",
            ])
    }

    @Test func a13AuthX25519() throws {
        let suite = HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)
        let key = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: hexBytes("fdea67cf831f1ca98d8e27b1f6abeb5b7745e9d35348b80fa407ff6958f9137e"))
        let senderKey = try Curve25519.KeyAgreement.PublicKey(
            rawRepresentation: hexBytes("8b0c70873dc5aecb7f9ee4e62406a397b350e57012be45cf53b7105ae731790b"))
        var recipient = try HPKE.Recipient(
            privateKey: key, ciphersuite: suite, info: Self.info,
            encapsulatedKey: Data(hexBytes("23fb952571a14a25e3d678140cd0e5eb47a0961bb18afcf85896e5453c312e76")),
            authenticatedBy: senderKey)
        let ct0 = "5fd92cc9d46dbf8943e72a07e42f363ed5f721212cd90bcfd072bfd9f44e06b80fd17824947496e21b680c141b"
        #expect(try recipient.open(hexBytes(ct0), authenticating: Self.aad0) == Self.plaintext)
        try Self.expectExports(
            { try recipient.exportSecret(context: $0, outputByteCount: 32) },
            [
                "28c70088017d70c896a8420f04702c5a321d9cbf0279fba899b59e51bac72c85",
                "25dfc004b0892be1888c3914977aa9c9bbaf2c7471708a49e1195af48a6f29ce",
                "5a0131813abc9a522cad678eb6bafaabc43389934adb8097d23c5ff68059eb64",
            ])
    }
}

@Suite struct CryptoKitHPKEUsageTests {
    @Test func everySuiteAndModeRoundTrips() throws {
        let info = Data("app v1".utf8)
        let psk = SymmetricKey(size: .bits256)
        let pskID = Data("psk-1".utf8)
        func roundTrip<SK: HPKEDiffieHellmanPrivateKeyGeneration>(_: SK.Type, _ suite: HPKE.Ciphersuite) throws
        where SK.PublicKey: HPKEDiffieHellmanPublicKey {
            let recipientKey = SK()
            let senderKey = SK()
            var senders = [
                try HPKE.Sender(recipientKey: recipientKey.publicKey, ciphersuite: suite, info: info),
                try HPKE.Sender(
                    recipientKey: recipientKey.publicKey, ciphersuite: suite, info: info, presharedKey: psk,
                    presharedKeyIdentifier: pskID),
                try HPKE.Sender(
                    recipientKey: recipientKey.publicKey, ciphersuite: suite, info: info, authenticatedBy: senderKey),
                try HPKE.Sender(
                    recipientKey: recipientKey.publicKey, ciphersuite: suite, info: info, authenticatedBy: senderKey,
                    presharedKey: psk, presharedKeyIdentifier: pskID),
            ]
            let enc = senders.map(\.encapsulatedKey)
            var recipients = [
                try HPKE.Recipient(privateKey: recipientKey, ciphersuite: suite, info: info, encapsulatedKey: enc[0]),
                try HPKE.Recipient(
                    privateKey: recipientKey, ciphersuite: suite, info: info, encapsulatedKey: enc[1],
                    presharedKey: psk, presharedKeyIdentifier: pskID),
                try HPKE.Recipient(
                    privateKey: recipientKey, ciphersuite: suite, info: info, encapsulatedKey: enc[2],
                    authenticatedBy: senderKey.publicKey),
                try HPKE.Recipient(
                    privateKey: recipientKey, ciphersuite: suite, info: info, encapsulatedKey: enc[3],
                    authenticatedBy: senderKey.publicKey, presharedKey: psk, presharedKeyIdentifier: pskID),
            ]
            for index in senders.indices {
                for message in ["first", "second", ""] {
                    let sealed = try senders[index].seal(Data(message.utf8), authenticating: Data("ad".utf8))
                    #expect(try recipients[index].open(sealed, authenticating: Data("ad".utf8)) == Data(message.utf8))
                }
                let sealed = try senders[index].seal(Data("no ad".utf8))
                #expect(try recipients[index].open(sealed) == Data("no ad".utf8))
                #expect(
                    try senders[index].exportSecret(context: Data("c".utf8), outputByteCount: 48)
                        == recipients[index].exportSecret(context: Data("c".utf8), outputByteCount: 48))
            }
        }
        try roundTrip(P256.KeyAgreement.PrivateKey.self, .P256_SHA256_AES_GCM_256)
        try roundTrip(P384.KeyAgreement.PrivateKey.self, .P384_SHA384_AES_GCM_256)
        try roundTrip(P521.KeyAgreement.PrivateKey.self, .P521_SHA512_AES_GCM_256)
        try roundTrip(Curve25519.KeyAgreement.PrivateKey.self, .Curve25519_SHA256_ChachaPoly)
    }

    @Test func failuresWithApplesErrors() throws {
        let key = Curve25519.KeyAgreement.PrivateKey()
        #expect(throws: HPKE.Errors.inconsistentCiphersuiteAndKey) {
            try HPKE.Sender(recipientKey: key.publicKey, ciphersuite: .P256_SHA256_AES_GCM_256, info: Data())
        }
        var sender = try HPKE.Sender(
            recipientKey: key.publicKey, ciphersuite: .Curve25519_SHA256_ChachaPoly, info: Data())
        var recipient = try HPKE.Recipient(
            privateKey: key, ciphersuite: .Curve25519_SHA256_ChachaPoly, info: Data(),
            encapsulatedKey: sender.encapsulatedKey)
        var first = try sender.seal(Data("one".utf8))
        let second = try sender.seal(Data("two".utf8))
        #expect(throws: HPKE.Errors.ciphertextTooShort) { try recipient.open(Data(count: 15)) }
        first[0] ^= 1
        #expect(throws: CryptoKitError.authenticationFailure) { try recipient.open(first) }
        first[0] ^= 1
        // A failed open does not advance the sequence number: the first message still opens, then the second.
        #expect(try recipient.open(first) == Data("one".utf8))
        #expect(try recipient.open(second) == Data("two".utf8))
        // As Apple's (swift-crypto's verifyPSKInputs): given is given, even empty. A sender using an empty
        // identifier or key is answered by a recipient given the same.
        let psk = SymmetricKey(size: .bits256)
        for (shared, identifier) in [(psk, Data()), (SymmetricKey(data: Data()), Data())] {
            var sender = try HPKE.Sender(
                recipientKey: key.publicKey, ciphersuite: .Curve25519_SHA256_ChachaPoly, info: Data(),
                presharedKey: shared, presharedKeyIdentifier: identifier)
            var receiver = try HPKE.Recipient(
                privateKey: key, ciphersuite: .Curve25519_SHA256_ChachaPoly, info: Data(),
                encapsulatedKey: sender.encapsulatedKey, presharedKey: shared, presharedKeyIdentifier: identifier)
            #expect(try receiver.open(try sender.seal(Data("psk".utf8))) == Data("psk".utf8))
        }
        let exportOnly = HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .exportOnly)
        var exporter = try HPKE.Sender(recipientKey: key.publicKey, ciphersuite: exportOnly, info: Data())
        #expect(throws: HPKE.Errors.exportOnlyMode) { try exporter.seal(Data("x".utf8)) }
        let receiver = try HPKE.Recipient(
            privateKey: key, ciphersuite: exportOnly, info: Data(), encapsulatedKey: exporter.encapsulatedKey)
        #expect(
            try exporter.exportSecret(context: Data(), outputByteCount: 16)
                == receiver.exportSecret(context: Data(), outputByteCount: 16))
    }
}

@Suite struct CryptoKitSecretPrintingTests {
    /// Printing or dumping values that hold secrets never shows the secret bytes.
    @Test func secretsStayOutOfDescriptionsAndDumps() throws {
        let keyBytes = [UInt8](repeating: 0xAB, count: 32)
        let agreement = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: keyBytes)
        let signing = try P256.Signing.PrivateKey(rawRepresentation: keyBytes)
        let sender = try HPKE.Sender(
            recipientKey: agreement.publicKey, ciphersuite: .Curve25519_SHA256_ChachaPoly, info: Data())
        let secret = try agreement.sharedSecretFromKeyAgreement(with: Curve25519.KeyAgreement.PrivateKey().publicKey)
        let secretHex = secret.withUnsafeBytes { hexText($0) }
        for value in [SymmetricKey(data: keyBytes), agreement, signing, sender, secret] as [Any] {
            var dumped = ""
            dump(value, to: &dumped)
            let text = (dumped + String(describing: value)).lowercased()
            #expect(!text.contains("abab"))
            #expect(!text.contains(secretHex.prefix(16)))
        }
    }
}
