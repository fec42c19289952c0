import CryptoKit
import Foundation
import Testing

/// Every signature and key-agreement type against the `openssl` command, both ways: what CryptoKit makes,
/// openssl accepts, and what openssl makes, CryptoKit accepts.
@Suite struct CryptoKitOpenSSLCrossCheckTests {
    enum Curve: String, CaseIterable, Sendable {
        case p256 = "P-256"
        case p384 = "P-384"
        case p521 = "P-521"

        var digest: String {
            switch self {
            case .p256: "-sha256"
            case .p384: "-sha384"
            case .p521: "-sha512"
            }
        }
    }

    /// A signing key of `curve` as CryptoKit's types, erased to closures.
    struct Signer {
        let privatePEM: String
        let publicPEM: String
        let sign: (Data) throws -> (raw: Data, der: Data)
    }

    static func makeSigner(_ curve: Curve) -> Signer {
        switch curve {
        case .p256:
            let key = P256.Signing.PrivateKey()
            return Signer(privatePEM: key.pemRepresentation, publicPEM: key.publicKey.pemRepresentation) {
                let signature = try key.signature(for: $0)
                return (signature.rawRepresentation, signature.derRepresentation)
            }
        case .p384:
            let key = P384.Signing.PrivateKey()
            return Signer(privatePEM: key.pemRepresentation, publicPEM: key.publicKey.pemRepresentation) {
                let signature = try key.signature(for: $0)
                return (signature.rawRepresentation, signature.derRepresentation)
            }
        case .p521:
            let key = P521.Signing.PrivateKey()
            return Signer(privatePEM: key.pemRepresentation, publicPEM: key.publicKey.pemRepresentation) {
                let signature = try key.signature(for: $0)
                return (signature.rawRepresentation, signature.derRepresentation)
            }
        }
    }

    /// Verifies a DER signature with a PEM public key through CryptoKit's type for `curve`.
    static func verify(_ curve: Curve, publicPEM: String, derSignature: Data, message: Data) throws -> Bool {
        switch curve {
        case .p256:
            try P256.Signing.PublicKey(pemRepresentation: publicPEM).isValidSignature(
                P256.Signing.ECDSASignature(derRepresentation: derSignature), for: message)
        case .p384:
            try P384.Signing.PublicKey(pemRepresentation: publicPEM).isValidSignature(
                P384.Signing.ECDSASignature(derRepresentation: derSignature), for: message)
        case .p521:
            try P521.Signing.PublicKey(pemRepresentation: publicPEM).isValidSignature(
                P521.Signing.ECDSASignature(derRepresentation: derSignature), for: message)
        }
    }

    static let message = Data("The quick brown fox jumps over the lazy dog".utf8)

    @Test(arguments: Curve.allCases)
    func ecdsaSignedHereVerifiesInOpenSSL(curve: Curve) throws {
        let openssl = try OpenSSLCommand()
        let signer = Self.makeSigner(curve)
        let messagePath = try openssl.write("message", Self.message)
        let publicPath = try openssl.write("public.pem", signer.publicPEM + "\n")
        let signaturePath = try openssl.write("signature.der", try signer.sign(Self.message).der)
        let verified = try openssl.run([
            "dgst", curve.digest, "-verify", publicPath, "-signature", signaturePath, messagePath,
        ])
        #expect(String(decoding: verified, as: UTF8.self).contains("Verified OK"))
        // openssl reads the private key's PEM and derives the same public key.
        let privatePath = try openssl.write("private.pem", signer.privatePEM + "\n")
        let derived = try openssl.run(["pkey", "-in", privatePath, "-pubout"])
        #expect(
            String(decoding: derived, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                == signer.publicPEM)
        try openssl.write("other", Data("another message".utf8))
        #expect(!openssl.succeeds(["dgst", curve.digest, "-verify", publicPath, "-signature", signaturePath, "other"]))
    }

    @Test(arguments: Curve.allCases)
    func ecdsaSignedInOpenSSLVerifiesHere(curve: Curve) throws {
        let openssl = try OpenSSLCommand()
        let messagePath = try openssl.write("message", Self.message)
        // One PKCS #8 key (genpkey) and one SEC 1 key (ecparam): CryptoKit reads both PEM forms.
        try openssl.run([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve.rawValue)",
            "-out", "pkcs8.pem",
        ])
        let groupName = curve == .p256 ? "prime256v1" : (curve == .p384 ? "secp384r1" : "secp521r1")
        try openssl.run(["ecparam", "-genkey", "-name", groupName, "-noout", "-out", "sec1.pem"])
        for keyFile in ["pkcs8.pem", "sec1.pem"] {
            try openssl.run(["dgst", curve.digest, "-sign", keyFile, "-out", "signature.der", messagePath])
            let publicPEM = String(decoding: try openssl.run(["pkey", "-in", keyFile, "-pubout"]), as: UTF8.self)
            let signature = try openssl.read("signature.der")
            #expect(try Self.verify(curve, publicPEM: publicPEM, derSignature: signature, message: Self.message))
            #expect(!(try Self.verify(curve, publicPEM: publicPEM, derSignature: signature, message: Data("x".utf8))))
            let privatePEM = String(decoding: try openssl.read(keyFile), as: UTF8.self)
            switch curve {
            case .p256:
                #expect(
                    try P256.Signing.PrivateKey(pemRepresentation: privatePEM).publicKey.pemRepresentation
                        == publicPEM.trimmingCharacters(in: .newlines))
            case .p384:
                #expect(
                    try P384.Signing.PrivateKey(pemRepresentation: privatePEM).publicKey.pemRepresentation
                        == publicPEM.trimmingCharacters(in: .newlines))
            case .p521:
                #expect(
                    try P521.Signing.PrivateKey(pemRepresentation: privatePEM).publicKey.pemRepresentation
                        == publicPEM.trimmingCharacters(in: .newlines))
            }
        }
    }

    @Test(arguments: Curve.allCases)
    func ecdhAgreesWithOpenSSLBothWays(curve: Curve) throws {
        let openssl = try OpenSSLCommand()
        try openssl.run([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve.rawValue)",
            "-out", "theirs.pem",
        ])
        let theirPublicPEM = String(decoding: try openssl.run(["pkey", "-in", "theirs.pem", "-pubout"]), as: UTF8.self)
        let ours: (publicPEM: String, secret: Data)
        switch curve {
        case .p256:
            let key = P256.KeyAgreement.PrivateKey()
            let secret = try key.sharedSecretFromKeyAgreement(with: .init(pemRepresentation: theirPublicPEM))
            ours = (key.publicKey.pemRepresentation, secret.withUnsafeBytes { Data($0) })
        case .p384:
            let key = P384.KeyAgreement.PrivateKey()
            let secret = try key.sharedSecretFromKeyAgreement(with: .init(pemRepresentation: theirPublicPEM))
            ours = (key.publicKey.pemRepresentation, secret.withUnsafeBytes { Data($0) })
        case .p521:
            let key = P521.KeyAgreement.PrivateKey()
            let secret = try key.sharedSecretFromKeyAgreement(with: .init(pemRepresentation: theirPublicPEM))
            ours = (key.publicKey.pemRepresentation, secret.withUnsafeBytes { Data($0) })
        }
        let ourPublicPath = try openssl.write("ours.pem", ours.publicPEM + "\n")
        let theirs = try openssl.run(["pkeyutl", "-derive", "-inkey", "theirs.pem", "-peerkey", ourPublicPath])
        #expect(theirs == ours.secret)
    }

    // Ed25519 and X25519 keys travel to openssl as DER: PKCS #8 and SubjectPublicKeyInfo (RFC 8410) around
    // the raw 32 bytes.
    static func pkcs8(oid: UInt8, _ raw: Data) -> Data {
        Data([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, oid, 0x04, 0x22, 0x04, 0x20]) + raw
    }

    static func spki(oid: UInt8, _ raw: Data) -> Data {
        Data([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, oid, 0x03, 0x21, 0x00]) + raw
    }

    @Test func ed25519BothWays() throws {
        let openssl = try OpenSSLCommand()
        let messagePath = try openssl.write("message", Self.message)
        // Signed here, verified by openssl; openssl derives the same public key from the seed.
        let ours = Curve25519.Signing.PrivateKey()
        try openssl.write("ours.der", Self.pkcs8(oid: 0x70, ours.rawRepresentation))
        try openssl.write("ours-public.der", Self.spki(oid: 0x70, ours.publicKey.rawRepresentation))
        try openssl.write("ours.sig", try ours.signature(for: Self.message))
        let verified = try openssl.run([
            "pkeyutl", "-verify", "-pubin", "-inkey", "ours-public.der", "-keyform", "DER", "-rawin",
            "-in", messagePath, "-sigfile", "ours.sig",
        ])
        #expect(String(decoding: verified, as: UTF8.self).contains("Signature Verified Successfully"))
        let publicFromOpenSSL = try openssl.run([
            "pkey", "-in", "ours.der", "-inform", "DER", "-pubout", "-outform", "DER",
        ])
        #expect(publicFromOpenSSL.suffix(32) == ours.publicKey.rawRepresentation)
        // Ed25519 is deterministic: openssl's signature with our key is byte for byte ours.
        let theirSignatureWithOurKey = try openssl.run([
            "pkeyutl", "-sign", "-inkey", "ours.der", "-keyform", "DER", "-rawin", "-in", messagePath,
        ])
        #expect(theirSignatureWithOurKey == (try ours.signature(for: Self.message)))
        // Signed by openssl with its own key, verified here.
        try openssl.run(["genpkey", "-algorithm", "ED25519", "-out", "theirs.pem"])
        let signature = try openssl.run(["pkeyutl", "-sign", "-inkey", "theirs.pem", "-rawin", "-in", messagePath])
        let theirPublic = try openssl.run(["pkey", "-in", "theirs.pem", "-pubout", "-outform", "DER"]).suffix(32)
        let publicKey = try Curve25519.Signing.PublicKey(rawRepresentation: theirPublic)
        #expect(publicKey.isValidSignature(signature, for: Self.message))
        #expect(!publicKey.isValidSignature(signature, for: Data("x".utf8)))
    }

    @Test func x25519BothWays() throws {
        let openssl = try OpenSSLCommand()
        try openssl.run(["genpkey", "-algorithm", "X25519", "-out", "theirs.pem"])
        let theirPublic = try openssl.run(["pkey", "-in", "theirs.pem", "-pubout", "-outform", "DER"]).suffix(32)
        let ours = Curve25519.KeyAgreement.PrivateKey()
        let secret = try ours.sharedSecretFromKeyAgreement(
            with: Curve25519.KeyAgreement.PublicKey(rawRepresentation: theirPublic))
        try openssl.write("ours-public.der", Self.spki(oid: 0x6e, ours.publicKey.rawRepresentation))
        let theirs = try openssl.run([
            "pkeyutl", "-derive", "-inkey", "theirs.pem", "-peerkey", "ours-public.der", "-peerform", "DER",
        ])
        #expect(theirs == secret.withUnsafeBytes { Data($0) })
        // openssl reads our private key and finds our public key.
        try openssl.write("ours.der", Self.pkcs8(oid: 0x6e, ours.rawRepresentation))
        let publicFromOpenSSL = try openssl.run([
            "pkey", "-in", "ours.der", "-inform", "DER", "-pubout", "-outform", "DER",
        ])
        #expect(publicFromOpenSSL.suffix(32) == ours.publicKey.rawRepresentation)
    }
}
