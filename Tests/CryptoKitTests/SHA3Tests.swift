import CryptoKit
import Foundation
import Testing

/// SHA-3 (FIPS 202), as CryptoKit offers it from iOS 26: NIST's example values, the same digests in pieces and
/// through a copied hash function, and `openssl dgst` on the same bytes.
@Suite struct SHA3Tests {
    static let twoBlock448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"

    @Test func knownAnswers() {
        #expect(
            hexText(SHA3_256.hash(data: Data()))
                == "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a")
        #expect(
            hexText(SHA3_256.hash(data: Data("abc".utf8)))
                == "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532")
        #expect(
            hexText(SHA3_256.hash(data: Array(Self.twoBlock448.utf8)))
                == "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376")
        #expect(
            hexText(SHA3_256.hash(data: Data(repeating: 0x61, count: 1_000_000)))
                == "5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1")
        #expect(
            hexText(SHA3_384.hash(data: Data("abc".utf8)))
                == "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25")
        #expect(
            hexText(SHA3_512.hash(data: Data("abc".utf8)))
                == "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
                + "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0")
    }

    @Test func sizesAndDescriptionsAreApples() {
        #expect(SHA3_256.blockByteCount == 136 && SHA3_256.byteCount == 32 && SHA3_256Digest.byteCount == 32)
        #expect(SHA3_384.blockByteCount == 104 && SHA3_384.byteCount == 48 && SHA3_384Digest.byteCount == 48)
        #expect(SHA3_512.blockByteCount == 72 && SHA3_512.byteCount == 64 && SHA3_512Digest.byteCount == 64)
        #expect(
            "\(SHA3_256.hash(data: Data("abc".utf8)))"
                == "SHA3_256 digest: 3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532")
        #expect("\(SHA3_384.hash(data: Data()))".hasPrefix("SHA3_384 digest: "))
        #expect("\(SHA3_512.hash(data: Data()))".hasPrefix("SHA3_512 digest: "))
    }

    @Test func piecesAndCopiesGiveTheSameDigests() {
        let message = Array(Self.twoBlock448.utf8)
        var hasher = SHA3_256()
        hasher.update(data: message[..<10])
        var fork = hasher  // a copy goes on alone
        hasher.update(data: message[10...])
        #expect(hasher.finalize() == SHA3_256.hash(data: message))
        #expect(hasher.finalize() == SHA3_256.hash(data: message), "finalize leaves the state as it was")
        fork.update(data: Data("other".utf8))
        #expect(fork.finalize() == SHA3_256.hash(data: message[..<10] + Array("other".utf8)))
        #expect(hasher.finalize() == SHA3_256.hash(data: message), "the copy's update did not touch the original")
        var large = SHA3_512()
        for _ in 0..<1000 { large.update(data: Data(repeating: 0x61, count: 1000)) }
        #expect(large.finalize() == SHA3_512.hash(data: Data(repeating: 0x61, count: 1_000_000)))
    }

    @Test func digestsMatchOpenSSL() throws {
        let openssl = try OpenSSLCommand()
        let data = Data("The quick brown fox jumps over the lazy dog".utf8)
        try openssl.write("data", data)
        func opensslDigest(_ name: String) throws -> String {
            String(
                String(decoding: try openssl.run(["dgst", "-\(name)", "-r", "data"]), as: UTF8.self).prefix {
                    $0 != " "
                })
        }
        #expect(hexText(SHA3_256.hash(data: data)) == (try opensslDigest("sha3-256")))
        #expect(hexText(SHA3_384.hash(data: data)) == (try opensslDigest("sha3-384")))
        #expect(hexText(SHA3_512.hash(data: data)) == (try opensslDigest("sha3-512")))
    }

    @Test func theyServeHMACAndHKDFAsAnyHashFunction() {
        let key = SymmetricKey(data: Data("key".utf8))
        let mac = HMAC<SHA3_256>.authenticationCode(for: Data("message".utf8), using: key)
        #expect(Array(mac).count == 32)
        #expect(HMAC<SHA3_256>.isValidAuthenticationCode(mac, authenticating: Data("message".utf8), using: key))
        let derived = HKDF<SHA3_512>.deriveKey(inputKeyMaterial: key, outputByteCount: 42)
        #expect(derived.bitCount == 336)
    }
}
