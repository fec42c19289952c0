import Foundation
import Security
import Testing

/// Behaviours found by running Wycheproof's vectors (and a robustness battery over their keys) through the
/// SecKey API; docs/keys.md, "Wycheproof vectors", lists the run.
@Suite struct SecKeyVectorFindingsTests {
    /// `rsaSignatureDigestPKCS1v15Raw` signs what it is given inside PKCS #1 v1.5 padding, without a DigestInfo;
    /// an empty input is padding only. Its signature must verify as any other: OpenSSL's verify treats an empty
    /// recovered payload as a failure, so the check recovers the payload and compares it.
    @Test func anEmptyPKCS1v15RawSignatureVerifies() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        var error: Unmanaged<CFError>?
        let signature = try #require(
            SecKeyCreateSignature(key, .rsaSignatureDigestPKCS1v15Raw, Data() as CFData, &error))
        #expect(error == nil)
        #expect((signature as Data).count == 256)
        #expect(SecKeyVerifySignature(publicKey, .rsaSignatureDigestPKCS1v15Raw, Data() as CFData, signature, &error))
        #expect(KeyFixtures.status(error) == nil)
        // The same signature does not verify a non-empty input.
        #expect(
            !SecKeyVerifySignature(publicKey, .rsaSignatureDigestPKCS1v15Raw, Data([0]) as CFData, signature, &error))
        #expect(KeyFixtures.status(error)?.code == -67808)
    }
}
