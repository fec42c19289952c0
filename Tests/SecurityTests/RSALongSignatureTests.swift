import Foundation
import Security
import Testing

/// An RSA signature longer than the modulus. Apple's verification reads the signature into the modulus's words
/// before any arithmetic (`SecKeyAdaptors.m`, `SecKeyRSAVerifyAdaptorCopyResult` through
/// `PerformWithBigEndianToCCUnit`), and the public key refuses a buffer of another size (`SecRSAKey.c`,
/// `SecRSAPublicKeyCopyOperationResult`, "input buffer bad size"): errSecParam, not errSecVerifyFailed, for every
/// RSA algorithm; `SecKeyRawVerify` passes that code on (only errSecVerifyFailed becomes errSSLCrypto).
@Suite struct RSALongSignatureTests {
    @Test func everyRSAAlgorithmAnswersErrSecParam() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        for algorithm in SecKeySignatureTests.algorithms("algid:sign:RSA") {
            let data = SecKeySignatureTests.input(for: algorithm) as CFData
            var error: Unmanaged<CFError>?
            let signature = try #require(SecKeyCreateSignature(key, algorithm, data, &error) as Data?)
            for long in [Data([0]) + signature, signature + Data([0]), Data(repeating: 0xFF, count: 512)] {
                #expect(!SecKeyVerifySignature(publicKey, algorithm, data, long as CFData, &error))
                let failure = error?.takeRetainedValue()
                error = nil
                #expect(failure?.domain == "NSOSStatusErrorDomain")
                #expect(failure?.code == Int(errSecParam), "\(algorithm.rawValue), \(long.count) bytes")
            }
            // A signature as long as the modulus that does not verify is still errSecVerifyFailed.
            var altered = signature
            altered[altered.count - 1] ^= 0x01
            #expect(!SecKeyVerifySignature(publicKey, algorithm, data, altered as CFData, &error))
            #expect(KeyFixtures.status(error)?.code == Int(errSecVerifyFailed), "\(algorithm.rawValue)")
        }
    }

    @Test func secKeyRawVerifyAnswersErrSecParamNotErrSSLCrypto() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        let digest = [UInt8](repeating: 0x5A, count: 32)
        for padding in [SecPadding(), .PKCS1, .PKCS1SHA256] {
            var signature = [UInt8](repeating: 0, count: 512)
            var length = signature.count
            #expect(SecKeyRawSign(key, padding, digest, digest.count, &signature, &length) == errSecSuccess)
            let valid = Array(signature.prefix(length))
            #expect(SecKeyRawVerify(publicKey, padding, digest, digest.count, valid, valid.count) == errSecSuccess)
            let long = [0] + valid
            #expect(
                SecKeyRawVerify(publicKey, padding, digest, digest.count, long, long.count) == errSecParam,
                "padding \(padding.rawValue)")
            var altered = valid
            altered[0] ^= 0x01
            #expect(SecKeyRawVerify(publicKey, padding, digest, digest.count, altered, altered.count) == errSSLCrypto)
        }
    }
}
