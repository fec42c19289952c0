import CryptoKit
import Foundation
import Testing

// FIPS 180-4 example values (NIST "Examples with Intermediate Values") and a NIST CAVP SHAShortMsg entry;
// RFC 1321's test suite for MD5.
@Suite struct CryptoKitDigestTests {
    static let twoBlock448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    static let twoBlock896 =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
        + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"

    @Test func sha256KnownAnswers() {
        #expect(
            hexText(SHA256.hash(data: Data("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hexText(SHA256.hash(data: Array(Self.twoBlock448.utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // CAVP SHA256ShortMsg.rsp, Len = 8.
        #expect(
            hexText(SHA256.hash(data: hexBytes("d3")))
                == "28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1")
        #expect(
            hexText(SHA256.hash(data: Data(repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha384AndSHA512KnownAnswers() {
        #expect(
            hexText(SHA384.hash(data: Data("abc".utf8)))
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(
            hexText(SHA384.hash(data: Data(Self.twoBlock896.utf8)))
                == "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039")
        #expect(
            hexText(SHA512.hash(data: Data("abc".utf8)))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(
            hexText(SHA512.hash(data: Data(Self.twoBlock896.utf8)))
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
    }

    @Test func insecureKnownAnswers() {
        #expect(hexText(Insecure.SHA1.hash(data: Data("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hexText(Insecure.MD5.hash(data: Data("abc".utf8))) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(hexText(Insecure.MD5.hash(data: Data())) == "d41d8cd98f00b204e9800998ecf8427e")
    }

    @Test func incrementalMatchesOneShotAndCopiesFork() {
        let message = Array(Self.twoBlock896.utf8)
        var hasher = SHA512()
        hasher.update(data: message[0..<7])
        var fork = hasher
        hasher.update(data: message[7...])
        #expect(hasher.finalize() == SHA512.hash(data: message))
        // The fork continues from where it was copied, independently.
        fork.update(data: Data("xyz".utf8))
        #expect(fork.finalize() == SHA512.hash(data: Array(message[0..<7]) + Array("xyz".utf8)))
        // finalize() leaves the hasher usable.
        _ = hasher.finalize()
        hasher.update(data: [1])
        #expect(hasher.finalize() == SHA512.hash(data: message + [1]))
    }

    @Test func digestsPrintAsApplesDo() {
        #expect(
            SHA256.hash(data: Data("abc".utf8)).description
                == "SHA256 digest: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Insecure.SHA1.hash(data: Data("abc".utf8)).description
                == "SHA1 digest: a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Insecure.MD5.hash(data: Data()).description == "MD5 digest: d41d8cd98f00b204e9800998ecf8427e")
        #expect("\(SHA384.hash(data: Data()))".hasPrefix("SHA384 digest: 38b060a751ac9638"))
        #expect("\(SHA512.hash(data: Data()))".hasPrefix("SHA512 digest: cf83e1357eefb8bd"))
    }

    @Test func digestsBridgeAndCompare() {
        let digest = SHA256.hash(data: Data("abc".utf8))
        #expect(Data(digest).count == SHA256.byteCount)
        #expect(Array(digest) == hexBytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(digest == Data(digest))
        #expect(!(digest == Data(digest).dropLast()))
        #expect(digest.withUnsafeBytes { Data($0) } == Data(digest))
        #expect(digest != SHA256.hash(data: Data("abd".utf8)))
        #expect(Set([digest, SHA256.hash(data: Data("abc".utf8))]).count == 1)
        #expect(SHA256Digest.byteCount == 32 && SHA384Digest.byteCount == 48 && SHA512Digest.byteCount == 64)
        #expect(Insecure.SHA1Digest.byteCount == 20 && Insecure.MD5Digest.byteCount == 16)
        #expect(SHA256.blockByteCount == 64 && SHA512.blockByteCount == 128)
        let viaBuffer = Data("abc".utf8).withUnsafeBytes { SHA256.hash(bufferPointer: $0) }
        #expect(viaBuffer == digest)
    }

    @Test func multiRegionDataHashesAsContiguous() {
        let joined = DispatchData.from([Array("ab".utf8), Array("c".utf8)])
        #expect(SHA256.hash(data: joined) == SHA256.hash(data: Data("abc".utf8)))
    }
}

extension DispatchData {
    /// Data with one region per element of `parts`.
    static func from(_ parts: [[UInt8]]) -> DispatchData {
        var data = DispatchData.empty
        for part in parts { part.withUnsafeBytes { data.append($0) } }
        return data
    }
}
