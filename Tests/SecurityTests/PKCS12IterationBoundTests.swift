import Foundation
import Security
import Testing
import X509Certificates

/// A PKCS#12 file chooses its own iteration counts: one asking for more than `PKCS12Iterations.maximum` in all is
/// refused with errSecDecode before any key derivation runs. The files are OpenSSL's with every count 65,536,
/// patched in place to counts of the same DER length (up to 0x7FFFFF).
@Suite struct PKCS12IterationBoundTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    /// `file` with its iteration counts at `positions` (in file order; a MAC's is last) set to `count`.
    func patched(_ file: String, at positions: [Int], to count: Int) throws -> [UInt8] {
        var bytes = Array(try fixtures.data(file))
        let counted: [UInt8] = [0x02, 0x03, 0x01, 0x00, 0x00]  // INTEGER 65,536
        let offsets = (0...(bytes.count - counted.count)).filter { Array(bytes[$0..<$0 + counted.count]) == counted }
        #expect(offsets.count == (file == "counted.p12" ? 3 : 2))
        for position in positions {
            let offset = try #require(offsets.indices.contains(position) ? offsets[position] : nil)
            bytes[offset + 2] = UInt8(count >> 16)
            bytes[offset + 3] = UInt8(count >> 8 & 0xFF)
            bytes[offset + 4] = UInt8(count & 0xFF)
        }
        return bytes
    }

    /// Opens `bytes`, expecting the refusal; answers how long that took.
    func expectRefused(_ bytes: [UInt8], passphrase: String = "correct-horse") -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        #expect {
            try PKCS12Archive.open(bytes, passphrase: passphrase)
        } throws: { error in
            guard case .malformed(let reason) = error as? X509Error else { return false }
            return reason.contains("more than 5000000 key-derivation iterations")
        }
        return clock.now - start
    }

    @Test func countsWithinTheBoundOpen() throws {
        let contents = try PKCS12Archive.open(Array(try fixtures.data("counted.p12")), passphrase: "correct-horse")
        #expect(contents.privateKey.map { Data($0.bytes) } == (try fixtures.data("leaf.pkcs8")))
        #expect(contents.chain.count == 2)
        #expect(PKCS12Iterations.maximum == 5_000_000)
    }

    @Test func aHugeMACCountIsRefusedBeforeTheMACIsComputed() throws {
        let bytes = try patched("counted.p12", at: [2], to: 0x7F_FFFF)
        #expect(expectRefused(bytes) < .seconds(1))
        #expect(expectRefused(bytes, passphrase: "wrong") < .seconds(1))
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: "correct-horse"] as CFDictionary
        #expect(SecPKCS12Import(Data(bytes) as CFData, options, &items) == errSecDecode)
        #expect(items == nil)
    }

    /// The two counts of the contents (the certificates' encrypted safe's, the shrouded key's), with or without a MAC.
    @Test(arguments: [("counted.p12", 0), ("counted.p12", 1), ("counted-nomac.p12", 0), ("counted-nomac.p12", 1)])
    func aHugeCountInTheContentsIsRefusedBeforeAnyDerivation(file: String, position: Int) throws {
        let bytes = try patched(file, at: [position], to: 0x7F_FFFF)
        #expect(expectRefused(bytes) < .seconds(1))
    }

    @Test func theCountsAddUp() throws {
        // 2,097,152 each: every one is within the bound, the three together are not.
        #expect(expectRefused(try patched("counted.p12", at: [0, 1, 2], to: 0x20_0000)) < .seconds(1))
    }
}
