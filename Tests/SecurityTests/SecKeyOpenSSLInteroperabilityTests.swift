import Foundation
import Security
import Testing

/// Interoperability with the `openssl` command in both directions: its keys import, signatures and ciphertexts
/// made here open there and back, and the public-key pin (SHA-256 of the SPKI built from the external
/// representation and the ASN.1 header) equals the SPKI digest openssl computes.
@Suite struct SecKeyOpenSSLInteroperabilityTests {
    /// The SubjectPublicKeyInfo prefixes that come before the external representation of each key kind.
    static let p256Header = Data(hex: "3059301306072a8648ce3d020106082a8648ce3d030107034200")
    static let p384Header = Data(hex: "3076301006072a8648ce3d020106052b81040022036200")
    static let rsa2048Header = Data(hex: "30820122300d06092a864886f70d01010105000382010f00")

    /// The hex after `label:` in `openssl pkey -text` output, up to the next label.
    static func hexField(_ label: String, in text: String) -> Data {
        var collecting = false
        var hex = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix(label) {
                collecting = true
                continue
            }
            guard collecting else { continue }
            guard line.hasPrefix(" ") else { break }
            hex += line.filter { $0.isHexDigit }
        }
        return Data(hex: hex)
    }

    /// An EC key made by openssl, imported here through its text form.
    static func opensslECKey(_ openssl: OpenSSLCommand, curve: String, header: Data) throws -> (SecKey, Data) {
        try openssl.run([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve)", "-out", openssl.path("key.pem"),
        ])
        let text = String(
            decoding: try openssl.run(["pkey", "-in", openssl.path("key.pem"), "-text", "-noout"]).output, as: UTF8.self
        )
        var scalar = hexField("priv:", in: text)
        let point = hexField("pub:", in: text)
        let size = (point.count - 1) / 2
        if scalar.count > size { scalar = scalar.suffix(size) }
        scalar = Data(repeating: 0, count: size - scalar.count) + scalar
        var error: Unmanaged<CFError>?
        let attributes = [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate]
        let key = try #require(SecKeyCreateWithData((point + scalar) as CFData, attributes as CFDictionary, &error))
        try openssl.run([
            "pkey", "-in", openssl.path("key.pem"), "-pubout", "-outform", "DER", "-out", openssl.path("spki.der"),
        ])
        return (key, try openssl.read("spki.der"))
    }

    @Test func ecSignaturesCrossBothWays() throws {
        let openssl = try OpenSSLCommand()
        defer { openssl.remove() }
        let (key, spki) = try Self.opensslECKey(openssl, curve: "P-256", header: Self.p256Header)
        let publicKey = try KeyFixtures.publicKey(key)
        // The pin: header + external representation is openssl's SPKI, byte for byte and by SHA-256.
        let pinned = Self.p256Header + (try KeyFixtures.external(publicKey))
        #expect(pinned == spki)
        let opensslPin = try openssl.run(["dgst", "-sha256", "-binary", openssl.path("spki.der")]).output
        try openssl.write(pinned, to: "pinned.der")
        #expect(try openssl.run(["dgst", "-sha256", "-binary", openssl.path("pinned.der")]).output == opensslPin)

        let message = Data("signed across the border".utf8)
        try openssl.write(message, to: "message")
        for (algorithm, digest) in [
            (SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256, "-sha256"), (.ecdsaSignatureMessageX962SHA384, "-sha384"),
            (.ecdsaSignatureMessageX962SHA512, "-sha512"), (.ecdsaSignatureMessageX962SHA1, "-sha1"),
            (.ecdsaSignatureMessageX962SHA224, "-sha224"),
        ] {
            var error: Unmanaged<CFError>?
            let ours = try #require(SecKeyCreateSignature(key, algorithm, message as CFData, &error) as Data?)
            try openssl.write(ours, to: "ours.sig")
            let verified = try openssl.run([
                "dgst", digest, "-verify", openssl.path("spki.der"), "-keyform", "DER", "-signature",
                openssl.path("ours.sig"), openssl.path("message"),
            ])
            #expect(verified.status == 0, "\(algorithm.rawValue)")
            try openssl.run([
                "dgst", digest, "-sign", openssl.path("key.pem"), "-out", openssl.path("theirs.sig"),
                openssl.path("message"),
            ])
            let theirs = try openssl.read("theirs.sig")
            #expect(SecKeyVerifySignature(publicKey, algorithm, message as CFData, theirs as CFData, &error))
        }
    }

    @Test func ecdhAgreesWithOpenSSL() throws {
        let openssl = try OpenSSLCommand()
        defer { openssl.remove() }
        let (_, _) = try Self.opensslECKey(openssl, curve: "P-384", header: Self.p384Header)
        let theirPublicDER = try openssl.read("spki.der")
        var error: Unmanaged<CFError>?
        let attributes = [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPublic]
        let theirPublic = try #require(
            SecKeyCreateWithData(theirPublicDER.suffix(97) as CFData, attributes as CFDictionary, &error))
        let ours = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 384)
        let ourPublic = Self.p384Header + (try KeyFixtures.external(try KeyFixtures.publicKey(ours)))
        try openssl.write(ourPublic, to: "ours.der")
        let secret = try #require(
            SecKeyCopyKeyExchangeResult(ours, .ecdhKeyExchangeStandard, theirPublic, [:] as CFDictionary, &error))
        let theirs = try openssl.run([
            "pkeyutl", "-derive", "-inkey", openssl.path("key.pem"), "-peerkey", openssl.path("ours.der"),
            "-peerform", "DER",
        ])
        #expect(theirs.status == 0)
        #expect(secret as Data == theirs.output)
    }

    @Test func rsaSignaturesAndOAEPCrossBothWays() throws {
        let openssl = try OpenSSLCommand()
        defer { openssl.remove() }
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        try openssl.write(try KeyFixtures.external(key), to: "key.der")
        try openssl.run(["pkey", "-inform", "DER", "-in", openssl.path("key.der"), "-out", openssl.path("key.pem")])
        try openssl.run([
            "pkey", "-in", openssl.path("key.pem"), "-pubout", "-outform", "DER", "-out", openssl.path("spki.der"),
        ])
        let spki = try openssl.read("spki.der")
        #expect(spki == Self.rsa2048Header + (try KeyFixtures.external(publicKey)))

        let message = Data("an RSA message".utf8)
        try openssl.write(message, to: "message")
        let cases: [(SecKeyAlgorithm, [String])] = [
            (.rsaSignatureMessagePKCS1v15SHA256, ["-sha256"]),
            (.rsaSignatureMessagePKCS1v15SHA1, ["-sha1"]),
            (.rsaSignatureMessagePKCS1v15SHA512, ["-sha512"]),
            (
                .rsaSignatureMessagePSSSHA256,
                ["-sha256", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32"]
            ),
            (
                // Apple's name ends in 24; its salt is 28 bytes, the digest's length.
                SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA224:SHA224:24" as CFString),
                ["-sha224", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:28"]
            ),
            (
                .rsaSignatureMessagePSSSHA384,
                ["-sha384", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:48"]
            ),
            (
                .rsaSignatureMessagePSSSHA512,
                ["-sha512", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:64"]
            ),
        ]
        for (algorithm, options) in cases {
            var error: Unmanaged<CFError>?
            let ours = try #require(SecKeyCreateSignature(key, algorithm, message as CFData, &error) as Data?)
            try openssl.write(ours, to: "ours.sig")
            let verified = try openssl.run(
                ["dgst"] + options + [
                    "-verify", openssl.path("spki.der"), "-keyform", "DER", "-signature", openssl.path("ours.sig"),
                    openssl.path("message"),
                ])
            #expect(verified.status == 0, "\(algorithm.rawValue)")
            try openssl.run(
                ["dgst"] + options + [
                    "-sign", openssl.path("key.pem"), "-out", openssl.path("theirs.sig"), openssl.path("message"),
                ])
            let theirs = try openssl.read("theirs.sig")
            #expect(
                SecKeyVerifySignature(publicKey, algorithm, message as CFData, theirs as CFData, &error),
                "\(algorithm.rawValue)")
        }

        for (algorithm, digest) in [
            (SecKeyAlgorithm.rsaEncryptionOAEPSHA1, "sha1"), (.rsaEncryptionOAEPSHA256, "sha256"),
            (.rsaEncryptionOAEPSHA512, "sha512"),
        ] {
            let options = [
                "-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:\(digest)", "-pkeyopt",
                "rsa_mgf1_md:\(digest)",
            ]
            var error: Unmanaged<CFError>?
            let ours = try #require(SecKeyCreateEncryptedData(publicKey, algorithm, message as CFData, &error) as Data?)
            try openssl.write(ours, to: "ours.bin")
            let opened = try openssl.run(
                ["pkeyutl", "-decrypt", "-inkey", openssl.path("key.pem"), "-in", openssl.path("ours.bin")] + options)
            #expect(opened.output == message, "\(algorithm.rawValue)")
            try openssl.run(
                [
                    "pkeyutl", "-encrypt", "-pubin", "-inkey", openssl.path("spki.der"), "-keyform", "DER", "-in",
                    openssl.path("message"), "-out", openssl.path("theirs.bin"),
                ] + options)
            let theirs = try openssl.read("theirs.bin")
            #expect(SecKeyCreateDecryptedData(key, algorithm, theirs as CFData, &error) as Data? == message)
        }
    }

    @Test func aSubjectPublicKeyInfoFromOpenSSLImportsThroughTheCertificateEntry() throws {
        let openssl = try OpenSSLCommand()
        defer { openssl.remove() }
        let (key, spki) = try Self.opensslECKey(openssl, curve: "P-256", header: Self.p256Header)
        let fromInfo = try #require(SecKey(subjectPublicKeyInfo: [UInt8](spki)))
        #expect(fromInfo == (try KeyFixtures.publicKey(key)))
        #expect(SecKey(subjectPublicKeyInfo: [0x30, 0x00]) == nil)
    }
}
