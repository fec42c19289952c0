import Foundation
import Security
import Testing

/// RSA private keys whose parts do not agree (a factor that is not one, as a damaged or hostile key file holds)
/// are refused when read, instead of giving a key that cannot sign (fuzz finding F6, docs/reliability.md).
@Suite struct InconsistentRSAKeyTests {
    /// A generated key's PKCS #1 RSAPrivateKey with one byte of its second prime `q` changed.
    private static func keyWithDamagedFactor() throws -> Data {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 1024)
        var der = [UInt8](try KeyFixtures.external(key))
        // SEQUENCE { version, n, e, d, p, q, ... }: skip the SEQUENCE header, then five INTEGERs.
        var offset = try #require(Self.contentStart(der, at: 0))
        for _ in 0..<5 { offset = try #require(Self.elementEnd(der, at: offset)) }
        let end = try #require(Self.elementEnd(der, at: offset))
        der[end - 1] ^= 0x02  // an odd q stays odd: only the factorization is wrong
        return Data(der)
    }

    @Test func anRSAPrivateKeyWhoseFactorIsDamagedIsErrSecParam() throws {
        let damaged = try Self.keyWithDamagedFactor()
        let attributes =
            [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateWithData(damaged as CFData, attributes, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
    }

    @Test func theFuzzFindingIsErrSecParam() throws {
        // The PKCS #1 key of Fuzz/Corpus/key-data/rsa-key-with-a-damaged-factor, found by the key-data target.
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/key-data/rsa-key-with-a-damaged-factor")
        let input = [UInt8](try Data(contentsOf: corpus))
        // [reader, algorithm, length (2 bytes)] ‖ PKCS #8 PrivateKeyInfo, whose key octets start at byte 26.
        let pkcs1 = Data(input[30..<(30 + 608)])
        let attributes =
            [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateWithData(pkcs1 as CFData, attributes, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
    }

    @Test func aConsistentRSAPrivateKeyStillReads() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let attributes =
            [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary
        var error: Unmanaged<CFError>?
        let read = SecKeyCreateWithData(try KeyFixtures.external(key) as CFData, attributes, &error)
        #expect(read != nil)
        #expect(error == nil)
    }

    private static func header(_ der: [UInt8], at offset: Int) -> (contentStart: Int, length: Int)? {
        guard offset + 2 <= der.count else { return nil }
        let first = Int(der[offset + 1])
        guard first >= 0x80 else { return (offset + 2, first) }
        let count = first & 0x7F
        guard offset + 2 + count <= der.count else { return nil }
        let length = der[(offset + 2)..<(offset + 2 + count)].reduce(0) { $0 << 8 | Int($1) }
        return (offset + 2 + count, length)
    }

    private static func contentStart(_ der: [UInt8], at offset: Int) -> Int? { header(der, at: offset)?.contentStart }

    private static func elementEnd(_ der: [UInt8], at offset: Int) -> Int? {
        header(der, at: offset).map { $0.contentStart + $0.length }
    }
}
